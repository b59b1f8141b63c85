import { appendItem, type SubAgentView } from '@tandem/agent';
import { agents, users } from '@tandem/db';
import { and, eq } from 'drizzle-orm';
import { AppError } from '../../errors/app-error.js';
import { requireCredits } from '../agents/agent-access.js';
import { subAgentViews } from './list-sub-agents.js';
import type { SupervisionDeps } from './start-sub-agent.js';

export const SUB_AGENT_NOT_FOUND = 'Sub-agent not found: use an id that sub_agent_status lists';

/**
 * A supervisor messages one of its own sub-agents (an id the model chose: any other agent is "not
 * found"). The message is written as the supervisor's creator, like a person's message.
 */
export async function messageSubAgent(
  deps: Omit<SupervisionDeps, 'models'>,
  supervisorId: string,
  subAgentId: string,
  message: string,
): Promise<SubAgentView> {
  const { db } = deps;
  const [sub] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.id, subAgentId), eq(agents.supervisorId, supervisorId)));
  if (!sub) throw new AppError('not_found', SUB_AGENT_NOT_FOUND);
  if (sub.archived) throw new AppError('validation', 'That sub-agent is archived');
  deps.sunset.requireMessages();
  await requireCredits(db, sub.installationId);
  const [creator] = await db.select().from(users).where(eq(users.id, sub.creatorId));
  await appendItem(db, sub.id, {
    itemType: 'message',
    actionType: 'supervisor_request',
    userId: sub.creatorId,
    data: {
      message,
      username: creator?.username ?? 'supervisor',
      supervisor_id: supervisorId,
      image_count: 0,
    },
  });
  await db.update(agents).set({ status: 'pending', lastActive: new Date() }).where(eq(agents.id, sub.id));
  deps.runner.enqueue(sub.id);
  const [view] = await subAgentViews(db, deps.webUrl, { ids: [sub.id] });
  return view!;
}
