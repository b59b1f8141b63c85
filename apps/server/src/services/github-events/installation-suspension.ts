import { eq } from 'drizzle-orm';
import { installations, type Db } from '@tandem/db';
import type { AgentRunner } from '@tandem/agent';
import { stopInstallationAgents } from '../agents/stop-installation-agents.js';

/**
 * The account's owner suspended (or unsuspended) the App on the code host. While suspended the code
 * host gives the App no tokens, so its working agents are stopped (they could neither fetch nor
 * push), members are told why on starting or messaging one (requireCredits), and its events start
 * nothing. Unsuspending changes only the flag: stopped agents wait for someone to message them.
 */
export async function setInstallationSuspended(
  deps: { db: Db; runner: Pick<AgentRunner, 'interrupt'> },
  installationId: number,
  suspended: boolean,
): Promise<number> {
  await deps.db
    .update(installations)
    .set({ suspendedAt: suspended ? new Date() : null, updatedAt: new Date() })
    .where(eq(installations.id, installationId));
  return suspended ? stopInstallationAgents(deps, installationId) : 0;
}
