import { eq } from 'drizzle-orm';
import { installations, type Db } from '@tandem/db';
import type { InstallationBanned } from '@tandem/shared';
import type { AgentRunner } from '@tandem/agent';
import { notFound } from '../../errors/app-error.js';
import { stopInstallationAgents } from '../agents/stop-installation-agents.js';

/**
 * Bans an installation (or lifts the ban). A ban stops its agents that are working or waiting, as
 * their owners' Pause would; from then on its members cannot start or message agents
 * (requireCredits) and its code-host events start nothing. Lifting it changes only the flag: the
 * agents stay paused until someone messages them.
 */
export async function banInstallation(
  deps: { db: Db; runner: Pick<AgentRunner, 'interrupt'> },
  installationId: number,
  banned: boolean,
): Promise<InstallationBanned> {
  const [row] = await deps.db
    .update(installations)
    .set({ bannedAt: banned ? new Date() : null, updatedAt: new Date() })
    .where(eq(installations.id, installationId))
    .returning({ bannedAt: installations.bannedAt });
  if (!row) throw notFound('Installation not found');
  const stopped = banned ? await stopInstallationAgents(deps, installationId) : 0;
  return {
    installation_id: installationId,
    banned,
    banned_at: row.bannedAt?.toISOString() ?? null,
    stopped_agents: stopped,
  };
}

/** GET …/installation/{id}/banned. */
export async function installationBanned(db: Db, installationId: number): Promise<InstallationBanned> {
  const [row] = await db
    .select({ bannedAt: installations.bannedAt })
    .from(installations)
    .where(eq(installations.id, installationId));
  if (!row) throw notFound('Installation not found');
  return {
    installation_id: installationId,
    banned: row.bannedAt !== null,
    banned_at: row.bannedAt?.toISOString() ?? null,
  };
}
