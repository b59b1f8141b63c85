import { and, eq, inArray } from 'drizzle-orm';
import { agents, type Db } from '@tandem/db';
import type { AgentRunner } from '@tandem/agent';

/**
 * Stops an installation's agents that are working or waiting, as their owners' Pause would (a ban,
 * a suspension on the code host). Returns how many it stopped.
 */
export async function stopInstallationAgents(
  deps: { db: Db; runner: Pick<AgentRunner, 'interrupt'> },
  installationId: number,
): Promise<number> {
  const active = await deps.db
    .select({ id: agents.id })
    .from(agents)
    .where(
      and(eq(agents.installationId, installationId), inArray(agents.status, ['pending', 'open', 'waiting'])),
    );
  for (const agent of active) await deps.runner.interrupt(agent.id);
  return active.length;
}
