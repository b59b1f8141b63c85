import { createHash, randomUUID } from 'node:crypto';
import { advancedLatest, agents, conversationItems, prepared, type Db } from '@tandem/db';
import { and, eq, sql } from 'drizzle-orm';
import { storableDeep } from '../sandbox/storable-text.js';
import { nextTimestamp } from './clock.js';

export type ItemType =
  | 'message'
  | 'commit'
  | 'number_lifecycle'
  | 'shell'
  | 'shell_message'
  | 'edit'
  | 'view'
  | 'action'
  | 'over_budget';

export interface NewItem {
  itemType: ItemType;
  actionType?: string | null;
  actionUuid?: string;
  pid?: number | null;
  userId?: string | null;
  /**
   * Items of outside effects (commits, pull requests, comments) carry their tool call: a resumed
   * run that repeats the call finds the item and does not show it twice.
   */
  dedupeKey?: string;
  data: Record<string, unknown>;
}

/**
 * Writes a feed item and moves the agent's latest_timestamp forward (advancedLatest) in one
 * statement (the insert in a data-modifying CTE), so the 2.5 s poll never sees a timestamp whose
 * item is not readable yet.
 * One statement rather than a transaction of two: on the embedded database a transaction holds
 * every other query off for its round trips, and feed items are its most frequent write (issue 15).
 */
export async function appendItem(
  db: Db,
  agentId: string,
  item: NewItem,
): Promise<{ actionUuid: string; timestamp: string }> {
  const actionUuid = item.actionUuid ?? (item.dedupeKey ? keyUuid(agentId, item.dedupeKey) : randomUUID());
  if (item.dedupeKey) {
    const [existing] = await db
      .select({ timestamp: conversationItems.timestamp })
      .from(conversationItems)
      .where(and(eq(conversationItems.agentId, agentId), eq(conversationItems.actionUuid, actionUuid)))
      .limit(1);
    if (existing) return { actionUuid, timestamp: existing.timestamp };
  }
  const { timestamp, values } = itemValues(agentId, { ...item, actionUuid });
  await prepared(db, 'append_item', (d, name) => appendStatement(d).prepare(name)).execute(values);
  return { actionUuid, timestamp };
}

/**
 * itemInsert's values for an item (its action UUID chosen), and the agent's new times (`at`), with
 * the item's timestamp for the caller.
 */
export function itemValues(
  agentId: string,
  item: NewItem & { actionUuid: string },
): { timestamp: string; values: Record<string, unknown> } {
  const timestamp = nextTimestamp();
  const values = {
    agentId,
    timestamp,
    itemType: item.itemType,
    actionUuid: item.actionUuid,
    actionType: item.actionType ?? null,
    pid: item.pid ?? null,
    userId: item.userId ?? null,
    // Command output and model text may carry NUL or lone surrogates, which jsonb rejects.
    data: storableDeep(item.data),
    // The agent's times keep milliseconds, as a Date written to them does elsewhere.
    at: new Date(timestamp).toISOString(),
  };
  return { timestamp, values };
}

/** The insert of one feed item, its values as placeholders named after itemValues' keys. */
function itemInsert(db: Db) {
  const p = (name: string) => sql.placeholder(name);
  return db
    .insert(conversationItems)
    .values({
      agentId: p('agentId'),
      timestamp: p('timestamp'),
      itemType: p('itemType'),
      actionUuid: p('actionUuid'),
      actionType: p('actionType'),
      pid: p('pid'),
      userId: p('userId'),
      data: p('data'),
    })
    .returning({ id: conversationItems.id });
}

/**
 * appendItem's statement, with placeholders named after itemValues' keys: the insert, and what the
 * new item sets on its agent's row (the poll's timestamp and activity, at its time `at`).
 */
function appendStatement(db: Db) {
  const at = sql`${sql.placeholder('at')}::timestamptz`;
  const inserted = db.$with('inserted').as(itemInsert(db));
  return db
    .with(inserted)
    .update(agents)
    .set({ latestTimestamp: advancedLatest(at), lastActive: at })
    .where(eq(agents.id, sql.placeholder('agentId')));
}

/** A stable UUID for a key (name-based, like UUID v5). */
export function keyUuid(agentId: string, key: string): string {
  const hex = createHash('sha256').update(`${agentId}:${key}`).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Items that change in place (a shell while its process runs, a commit's review or CI runs) keep
 * their place in the feed. The agent's latest_timestamp moves too, in the same transaction, so
 * open pages read the newest page again and see the change at their next poll.
 */
export async function updateItemData(
  db: Db,
  agentId: string,
  key: { actionUuid: string; pid: number | null; itemType: ItemType },
  data: Record<string, unknown>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const changed = await tx
      .update(conversationItems)
      .set({ data: storableDeep(data) })
      .where(
        and(
          eq(conversationItems.agentId, agentId),
          eq(conversationItems.actionUuid, key.actionUuid),
          eq(conversationItems.itemType, key.itemType),
        ),
      )
      .returning({ actionUuid: conversationItems.actionUuid });
    if (changed.length)
      await tx
        .update(agents)
        .set({ latestTimestamp: advancedLatest(new Date(nextTimestamp())) })
        .where(eq(agents.id, agentId));
  });
}

export const actionItem = (actionType: string, data: Record<string, unknown> = {}): NewItem => ({
  itemType: 'action',
  actionType,
  data: { action_type: actionType, ...data },
});
