import type { AgentRunner } from '@tandem/agent';
import { agents, type Db } from '@tandem/db';
import { and, eq, inArray } from 'drizzle-orm';
import { WORKING_STATUSES } from './list-sub-agents.js';

/**
 * Pauses an agent; pausing a supervisor also pauses every sub-agent still at work, so stopping the
 * supervisor stops the work it started (their reports then do not wake it).
 */
export async function stopAgent(
  db: Db,
  runner: Pick<AgentRunner, 'interrupt'>,
  agent: { id: string; agentType: string },
): Promise<void> {
  await runner.interrupt(agent.id);
  if (agent.agentType !== 'supervisor') return;
  const working = await db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.supervisorId, agent.id), inArray(agents.status, [...WORKING_STATUSES])));
  for (const sub of working) await runner.interrupt(sub.id);
}

/** stopAgent for callers that hold only the id (the admin task monitor). */
export async function stopAgentById(
  db: Db,
  runner: Pick<AgentRunner, 'interrupt'>,
  agentId: string,
): Promise<void> {
  const [agent] = await db
    .select({ id: agents.id, agentType: agents.agentType })
    .from(agents)
    .where(eq(agents.id, agentId));
  if (agent) await stopAgent(db, runner, agent);
}
