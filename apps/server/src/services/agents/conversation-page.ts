import { and, desc, eq, lt } from 'drizzle-orm';
import { conversationItems, type Db } from '@tandem/db';
import { CONVERSATION_PAGE_SIZE } from '@tandem/shared';

export async function conversationPage(db: Db, agentId: string, before: string | undefined) {
  const rows = await db
    .select()
    .from(conversationItems)
    .where(
      and(
        eq(conversationItems.agentId, agentId),
        before ? lt(conversationItems.timestamp, before) : undefined,
      ),
    )
    .orderBy(desc(conversationItems.timestamp))
    .limit(CONVERSATION_PAGE_SIZE + 1);
  const page = rows.slice(0, CONVERSATION_PAGE_SIZE).reverse();
  return {
    conversation: page.map((row) => ({
      ...row.data,
      item_type: row.itemType,
      action_uuid: row.actionUuid,
      pid: row.pid,
      timestamp: row.timestamp,
      action_type: row.actionType,
      user_id: row.userId,
    })),
    spice: [],
    has_more: rows.length > CONVERSATION_PAGE_SIZE,
    oldest_timestamp: page[0]?.timestamp ?? null,
  };
}
