import { and, eq, sql } from 'drizzle-orm';
import { agents, installations, memberships, prepared, repositories, type Db } from '@tandem/db';
import { OUT_OF_CREDITS_MESSAGE } from '@tandem/agent';
import { INSTALLATION_BANNED_MESSAGE, INSTALLATION_SUSPENDED_MESSAGE } from '@tandem/shared';
import { AppError, notFound } from '../../errors/app-error.js';
import type { AuthenticatedUser } from '../sessions.js';

export type AgentRow = typeof agents.$inferSelect;

/**
 * Whether the installation may start work: 403 when a product admin banned it or its owner
 * suspended the App on the code host, 402 when it has no
 * credits left (platform §8: the credits notice). One query, before anything is stored.
 */
export async function requireCredits(db: Db, installationId: number): Promise<void> {
  const [row] = await prepared(db, 'installation_standing', (d, name) =>
    d
      .select({
        balance: installations.creditBalance,
        bannedAt: installations.bannedAt,
        suspendedAt: installations.suspendedAt,
      })
      .from(installations)
      .where(eq(installations.id, sql.placeholder('installationId')))
      .prepare(name),
  ).execute({ installationId });
  requireStanding(row);
}

/** An installation's standing, as read with its other columns: what `requireCredits` checks. */
export interface InstallationStanding {
  balance: string | number | null;
  bannedAt: Date | null;
  suspendedAt: Date | null;
}

/** `requireCredits` for a standing read by the caller (with what else it needed, in one query). */
export function requireStanding(row: InstallationStanding | undefined): void {
  if (row?.bannedAt) throw new AppError('forbidden', INSTALLATION_BANNED_MESSAGE);
  if (row?.suspendedAt) throw new AppError('forbidden', INSTALLATION_SUSPENDED_MESSAGE);
  if (Number(row?.balance ?? 0) <= 0) throw new AppError('payment_required', OUT_OF_CREDITS_MESSAGE);
}

/** The `purpose` of the public party agents (/party): anyone may read them (platform §6). */
export const PARTY_PURPOSE = 'party';

/**
 * Who may see an agent: admins, its creator, installation members when the repository shares
 * agents, and everyone for a party agent.
 */
export function mayView(
  viewer: AuthenticatedUser,
  agent: { creatorId: string; member: string | null; agentsPublic: boolean | null; purpose?: string | null },
): boolean {
  return (
    viewer.admin ||
    agent.creatorId === viewer.id ||
    agent.purpose === PARTY_PURPOSE ||
    (agent.member !== null && agent.agentsPublic === true)
  );
}

/**
 * Loads an agent the viewer may see (mayView), else 404. Also says whether the viewer is a member
 * of the agent's installation (previews need it).
 */
export async function loadAgentAccess(
  db: Db,
  viewer: AuthenticatedUser,
  agentId: string,
): Promise<{ agent: AgentRow; member: boolean }> {
  const [row] = await db
    .select({ agent: agents, agentsPublic: repositories.agentsPublic, member: memberships.userId })
    .from(agents)
    .leftJoin(repositories, eq(repositories.id, agents.repositoryId))
    .leftJoin(
      memberships,
      and(eq(memberships.installationId, agents.installationId), eq(memberships.userId, viewer.id)),
    )
    .where(eq(agents.id, agentId))
    .limit(1);
  // Someone else's agent is indistinguishable from a missing one.
  if (!row || !mayView(viewer, { ...row, creatorId: row.agent.creatorId, purpose: row.agent.purpose }))
    throw notFound('Agent not found');
  return { agent: row.agent, member: row.member !== null };
}

export async function visibleAgent(db: Db, viewer: AuthenticatedUser, agentId: string): Promise<AgentRow> {
  return (await loadAgentAccess(db, viewer, agentId)).agent;
}

export async function loadAgent(db: Db, viewer: AuthenticatedUser, agentId: string): Promise<AgentRow> {
  return visibleAgent(db, viewer, agentId);
}

/** An agent the viewer may steer (message, rename, pause…): its owner, or an admin; else 403 `refusal`. */
export async function loadSteerableAgent(
  db: Db,
  viewer: AuthenticatedUser,
  agentId: string,
  refusal: string,
): Promise<AgentRow> {
  const agent = await visibleAgent(db, viewer, agentId);
  if (agent.creatorId !== viewer.id && !viewer.admin) throw new AppError('forbidden', refusal);
  return agent;
}
