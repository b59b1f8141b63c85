import { appendItem, type SubAgentOutcome } from '@tandem/agent';
import { agents, type Db } from '@tandem/db';
import { eq } from 'drizzle-orm';
import { subAgentViews } from './list-sub-agents.js';

/** Supervisor statuses in which a report wakes it (a stopped or finished supervisor stays so). */
const WAKEABLE = new Set(['open', 'pending', 'waiting']);

const OUTCOME_TEXT: Record<SubAgentOutcome, string> = {
  completed: 'finished',
  stopped: 'was stopped',
  failed: 'failed',
  paused: 'paused without finishing (its budget or credits may have run out); message it to continue',
};

/**
 * A sub-agent's run ended: its report (summary, pull requests, status) goes to the supervisor's
 * feed as a message the supervisor's model reads, and wakes the supervisor if it is waiting or at
 * work. A supervisor a person stopped is not woken: the report waits for the next message.
 */
export async function reportSubAgent(
  deps: { db: Db; webUrl: string; runner: { enqueue(agentId: string): void } },
  subAgentId: string,
  outcome: SubAgentOutcome,
  detail: string | null,
): Promise<void> {
  const { db } = deps;
  const [sub] = await db.select().from(agents).where(eq(agents.id, subAgentId));
  if (!sub?.supervisorId) return;
  const [supervisor] = await db.select().from(agents).where(eq(agents.id, sub.supervisorId));
  if (!supervisor) return;
  const [view] = await subAgentViews(db, deps.webUrl, { ids: [sub.id] });
  const summary = outcome === 'completed' ? (view?.summary ?? null) : detail;
  const pulls = view?.pullRequests ?? [];
  const lines = [
    `Sub-agent #${sub.number} "${sub.title}" (${sub.id}) in ${view?.repository ?? '?'} ${OUTCOME_TEXT[outcome]}.`,
    ...(pulls.length ? [`Pull requests: ${pulls.join(', ')}`] : []),
    ...(summary ? [`Report: ${summary}`] : []),
  ];
  await appendItem(db, supervisor.id, {
    itemType: 'message',
    actionType: 'sub_agent_report',
    // Written in the creator's name so the supervisor's model reads it like any message it gets.
    userId: supervisor.creatorId,
    data: {
      message: lines.join('\n'),
      username: `sub-agent #${sub.number}`,
      sub_agent_id: sub.id,
      sub_agent_number: sub.number,
      sub_agent_title: sub.title,
      sub_agent_status: outcome,
      repository_name: view?.repository ?? null,
      task_summary: summary,
      pull_requests: pulls,
      image_count: 0,
    },
  });
  if (WAKEABLE.has(supervisor.status) && !supervisor.interruptRequested && !supervisor.archived)
    deps.runner.enqueue(supervisor.id);
}
