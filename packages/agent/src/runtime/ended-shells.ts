import { agents, conversationItems, type Db } from '@tandem/db';
import { and, eq, gt, ne, sql } from 'drizzle-orm';
import { appendItem } from './items.js';

export const SANDBOX_GONE_MESSAGE = 'Process ended: its sandbox is gone (the server restarted)';

/**
 * Shells whose sandbox no longer exists never send their shutdown message: the feed would show
 * them running forever, and the ports menu would offer ports nobody serves. This writes the
 * missing shutdown messages and empties `cur_ports`, for one agent when it gets a fresh sandbox,
 * or for every agent of a process that owned all sandboxes (the embedded runner at start-up).
 * `since` bounds the scan: shells never outlive their 2-hour lifetime.
 */
export async function endOrphanedShells(db: Db, scope: { agentId?: string; since?: Date }): Promise<number> {
  const conditions = [
    eq(conversationItems.itemType, 'shell'),
    sql`not exists (
      select 1 from ${conversationItems} as m
      where m.agent_id = ${conversationItems.agentId}
        and m.action_uuid = ${conversationItems.actionUuid}
        and m.item_type = 'shell_message'
        and m.data->>'message_type' = 'shutdown')`,
  ];
  if (scope.agentId) conditions.push(eq(conversationItems.agentId, scope.agentId));
  if (scope.since) conditions.push(gt(conversationItems.timestamp, scope.since.toISOString()));
  const open = await db
    .select({
      agentId: conversationItems.agentId,
      actionUuid: conversationItems.actionUuid,
      pid: conversationItems.pid,
    })
    .from(conversationItems)
    .where(and(...conditions));
  for (const shell of open) {
    await appendItem(db, shell.agentId, {
      itemType: 'shell_message',
      pid: shell.pid,
      actionUuid: shell.actionUuid,
      data: { message_type: 'shutdown', message: SANDBOX_GONE_MESSAGE },
    });
  }
  // Only rows that list ports: rewriting an empty list would still write a new row version (and
  // an index entry each time the page is full), once per fresh sandbox and once per disposal.
  const noPorts = sql`'[]'::jsonb`;
  const listsPorts = ne(agents.curPorts, noPorts);
  await db
    .update(agents)
    .set({ curPorts: [] })
    .where(scope.agentId ? and(eq(agents.id, scope.agentId), listsPorts) : listsPorts);
  return open.length;
}
