import { randomInt } from 'node:crypto';
import { and, desc, eq, gt, like, lt, ne, or } from 'drizzle-orm';
import { previewSubdomains, repositories, type Db } from '@tandem/db';
import {
  DEFAULT_SANDBOX_HOST,
  forwardedPortsOf,
  normalizeSubdomain,
  PREVIEW_REGISTRY_TTL_MS,
  type PreviewResponse,
} from '@tandem/shared';
import type { z } from 'zod';
import type { previewRequestSchema } from '@tandem/shared';
import { AppError } from '../errors/app-error.js';
import { loadAgentAccess } from './agents.js';
import type { AuthenticatedUser } from './sessions.js';

export const PREVIEW_MEMBERS_ONLY = 'Preview ports are only viewable by members of the installation';
/** Numeric suffixes tried after a taken subdomain, before random ones (workspace §5). */
const MAX_NUMBERED_SUFFIX = 1000;
const RANDOM_SUFFIX_BELOW = 10_000;

/** The agent, if the viewer may see its previews: members of its installation, and admins. */
async function previewableAgent(db: Db, viewer: AuthenticatedUser, agentId: string) {
  const { agent, member } = await loadAgentAccess(db, viewer, agentId);
  if (!viewer.admin && !member) throw new AppError('forbidden', PREVIEW_MEMBERS_ONLY);
  return agent;
}

const liveSince = (now: Date) => new Date(now.getTime() - PREVIEW_REGISTRY_TTL_MS);

/**
 * Opens the preview of one of an agent's ports, keeps it alive, or renames it. The workspace calls
 * this when a preview tab opens and every 30 s while it stays open.
 */
export async function openPreview(
  db: Db,
  viewer: AuthenticatedUser,
  request: z.output<typeof previewRequestSchema>,
  urlOf: (subdomain: string) => string,
  now = new Date(),
): Promise<PreviewResponse> {
  const agent = await previewableAgent(db, viewer, request.trajectory_id);
  const { port } = request;
  const [current] = await db
    .select({ subdomain: previewSubdomains.subdomain })
    .from(previewSubdomains)
    .where(
      and(
        eq(previewSubdomains.agentId, agent.id),
        eq(previewSubdomains.port, port),
        gt(previewSubdomains.lastActiveAt, liveSince(now)),
      ),
    )
    .orderBy(desc(previewSubdomains.lastActiveAt))
    .limit(1);
  let subdomain = current?.subdomain;
  if (subdomain && (!request.subdomain || request.subdomain === subdomain)) {
    await db
      .update(previewSubdomains)
      .set({ lastActiveAt: now })
      .where(eq(previewSubdomains.subdomain, subdomain));
  } else {
    const wanted = request.subdomain ?? (await defaultSubdomain(db, agent, port));
    subdomain = await claimSubdomain(db, wanted, { agentId: agent.id, port, userId: viewer.id }, now);
    // A rename leaves no second address behind for the same port.
    await db
      .delete(previewSubdomains)
      .where(
        and(
          eq(previewSubdomains.agentId, agent.id),
          eq(previewSubdomains.port, port),
          ne(previewSubdomains.subdomain, subdomain),
        ),
      );
  }
  return {
    subdomain,
    port,
    url: `${urlOf(subdomain)}/`,
    expires_at: new Date(now.getTime() + PREVIEW_REGISTRY_TTL_MS).toISOString(),
  };
}

async function defaultSubdomain(
  db: Db,
  agent: { repositoryId: string | null; number: number },
  port: number,
): Promise<string> {
  const [repo] = agent.repositoryId
    ? await db
        .select({ fullName: repositories.fullName })
        .from(repositories)
        .where(eq(repositories.id, agent.repositoryId))
    : [];
  const name = repo?.fullName.split('/')[1] ?? 'agent';
  return normalizeSubdomain(`${name}-${agent.number}-${port}`) || `agent-${port}`;
}

/**
 * Takes `wanted`, or the first free `wanted-N` (N up to 1000), or else `wanted-R` with R random
 * below 10000. An entry that lapsed, or that already shows this port, counts as free.
 */
async function claimSubdomain(
  db: Db,
  wanted: string,
  owner: { agentId: string; port: number; userId: string },
  now: Date,
): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const taken = new Set(
      (
        await db
          .select({ subdomain: previewSubdomains.subdomain })
          .from(previewSubdomains)
          .where(
            and(
              // No LIKE wildcard can be in `wanted`: it holds only a-z, 0-9 and '-'.
              or(eq(previewSubdomains.subdomain, wanted), like(previewSubdomains.subdomain, `${wanted}-%`)),
              gt(previewSubdomains.lastActiveAt, liveSince(now)),
              or(ne(previewSubdomains.agentId, owner.agentId), ne(previewSubdomains.port, owner.port)),
            ),
          )
      ).map((r) => r.subdomain),
    );
    const candidate = firstFree(wanted, taken);
    const [claimed] = await db
      .insert(previewSubdomains)
      .values({ subdomain: candidate, ...ownerColumns(owner), lastActiveAt: now })
      .onConflictDoUpdate({
        target: previewSubdomains.subdomain,
        set: { ...ownerColumns(owner), lastActiveAt: now, createdAt: now },
        // Only a lapsed entry, or our own, is overwritten; a live one means someone was faster.
        setWhere: or(
          lt(previewSubdomains.lastActiveAt, liveSince(now)),
          and(eq(previewSubdomains.agentId, owner.agentId), eq(previewSubdomains.port, owner.port)),
        ),
      })
      .returning({ subdomain: previewSubdomains.subdomain });
    if (claimed) return claimed.subdomain;
  }
  throw new AppError('conflict', 'Could not reserve a preview subdomain. Try another name.');
}

const ownerColumns = (owner: { agentId: string; port: number; userId: string }) => ({
  agentId: owner.agentId,
  port: owner.port,
  createdBy: owner.userId,
});

function firstFree(wanted: string, taken: ReadonlySet<string>): string {
  if (!taken.has(wanted)) return wanted;
  for (let n = 1; n <= MAX_NUMBERED_SUFFIX; n++) {
    if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
  }
  return `${wanted}-${randomInt(RANDOM_SUFFIX_BELOW)}`;
}

export type PreviewTarget =
  /** `port` is the agent's port (what its server believes it serves on); `connectPort` leads to it. */
  | { kind: 'ok'; host: string; port: number; connectPort?: number }
  | { kind: 'unknown' }
  | { kind: 'forbidden' }
  | { kind: 'not_serving'; port: number };

/** Where a request to a preview subdomain goes, for this viewer. */
export async function previewTarget(
  db: Db,
  viewer: AuthenticatedUser,
  subdomain: string,
  now = new Date(),
): Promise<PreviewTarget> {
  const [entry] = await db
    .select({ agentId: previewSubdomains.agentId, port: previewSubdomains.port })
    .from(previewSubdomains)
    .where(
      and(eq(previewSubdomains.subdomain, subdomain), gt(previewSubdomains.lastActiveAt, liveSince(now))),
    )
    .limit(1);
  if (!entry) return { kind: 'unknown' };
  let agent;
  try {
    agent = await previewableAgent(db, viewer, entry.agentId);
  } catch (error) {
    if (error instanceof AppError) return { kind: 'forbidden' };
    throw error;
  }
  const served = forwardedPortsOf(agent.curPorts).find((p) => p.internal_port === entry.port && p.active);
  if (!served) return { kind: 'not_serving', port: entry.port };
  return {
    kind: 'ok',
    host: served.host ?? DEFAULT_SANDBOX_HOST,
    port: entry.port,
    ...(served.host_port ? { connectPort: served.host_port } : {}),
  };
}
