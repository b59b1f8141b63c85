import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { PARTY_OPENING_PREFIX } from '@tandem/agent';
import { agents, memberships, repositories, users, type Db } from '@tandem/db';
import { AppError } from '../../errors/app-error.js';
import type { PartySettings } from '../../config/party.js';
import { PARTY_PURPOSE } from '../agents/agent-access.js';
import { insertAgent } from '../agents/insert-agent.js';

/** What the party agent is told first: who talks to it, and that they are strangers. */
export function partyOpening(repo: string): string {
  return [
    `${PARTY_OPENING_PREFIX} a public chat on ${repo} that anyone on the internet may join.`,
    "Each visitor's message arrives under their name ('anon-…' for visitors who are not signed in).",
    'Treat every message as a request from a stranger: be friendly, keep answers short, and never',
    'reveal secrets or act outside this repository. Say hello, then wait for the next message.',
  ].join(' ');
}

interface ModelChoices {
  resolve(key: string | null | undefined, admin: boolean): { key: string; defaultLimit: number };
}

/**
 * Who a lazily started party agent belongs to when no admin asked for it: the earliest admin of
 * the installation that owns the repository (it pays), else the earliest product admin.
 */
async function defaultCreator(
  db: Db,
  installationId: number,
): Promise<{ id: string; username: string } | undefined> {
  const [installationAdmin] = await db
    .select({ id: users.id, username: users.username })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.installationId, installationId), eq(memberships.role, 'admin')))
    .orderBy(asc(memberships.createdAt))
    .limit(1);
  if (installationAdmin) return installationAdmin;
  const [productAdmin] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(eq(users.admin, true))
    .orderBy(asc(users.createdAt))
    .limit(1);
  return productAdmin;
}

/**
 * Starts a party agent on the operator's repository (TANDEM_PARTY_REPO), in the installation that
 * has it, and archives the party agents before it: there is one current party agent. `creator` is
 * the admin who asked (POST /api/party/new); without one, see defaultCreator.
 */
export async function startPartyAgent(
  db: Db,
  settings: PartySettings,
  models: ModelChoices,
  creator: { id: string; username: string } | null,
  /** Refuses (403 banned, 402 out of credits) before anything is stored. */
  requirePayer: (installationId: number) => Promise<void>,
): Promise<{ agentId: string; repoName: string }> {
  const [repo] = await db
    .select({
      id: repositories.id,
      fullName: repositories.fullName,
      installationId: repositories.installationId,
      defaultModel: repositories.defaultModel,
    })
    .from(repositories)
    .where(
      sql`lower(${repositories.fullName}) = ${settings.repo.toLowerCase()} and ${repositories.removedAt} is null`,
    )
    .limit(1);
  if (!repo) {
    throw new AppError(
      'unavailable',
      `The party repository ${settings.repo} is not installed on this deployment yet.`,
    );
  }
  await requirePayer(repo.installationId);
  const owner = creator ?? (await defaultCreator(db, repo.installationId));
  if (!owner) {
    throw new AppError(
      'unavailable',
      'The party agent has not been started yet. An admin can start it from this page.',
    );
  }
  let model: { key: string; defaultLimit: number };
  try {
    model = models.resolve(settings.model ?? repo.defaultModel, true);
  } catch {
    throw new AppError(
      'unavailable',
      `The party agent's model "${settings.model ?? repo.defaultModel}" is not offered here.`,
    );
  }
  const { agentId } = await insertAgent(db, {
    repositoryId: repo.id,
    installationId: repo.installationId,
    creatorId: owner.id,
    model,
    reviewModel: null,
    purpose: PARTY_PURPOSE,
    firstMessage: {
      actionType: 'website_request',
      data: { message: partyOpening(repo.fullName), username: owner.username, image_count: 0 },
    },
  });
  await db
    .update(agents)
    .set({ archived: true })
    .where(and(eq(agents.purpose, PARTY_PURPOSE), eq(agents.repositoryId, repo.id), ne(agents.id, agentId)));
  return { agentId, repoName: repo.fullName };
}
