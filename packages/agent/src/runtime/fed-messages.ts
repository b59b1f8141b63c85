import { agents, coalesced, prepared, spiceMessages, type Db } from '@tandem/db';
import type { ModelMessage, UserContent } from 'ai';
import { eq, sql } from 'drizzle-orm';
import {
  IMAGE_REF,
  readUnfedMessages,
  spiceValues,
  userText,
  type StoredSpice,
  type UnfedMessage,
} from './history.js';

/** One user message fed to an agent's model: its spice row, as spiceValues made it. */
interface FedRow {
  agentId: string;
  timestamp: string;
  role: string;
  /** The message's content as stored JSON text. */
  json: string;
  actionUuid: string;
}

/**
 * The spice rows of the user messages fed to their models, of every agent whose run feeds them at
 * the same time, as one insert (coalesced.ts): each of a hundred new agents starts by feeding its
 * first message, just before its first model request (issue 15). The rows travel as one JSON
 * array, so the statement's text is one whatever the number of rows.
 */
async function insertFedRows(db: Db, rows: FedRow[]): Promise<Map<FedRow, true>> {
  // The content is already JSON text: spliced in as it is, not encoded again.
  const payload = `[${rows
    .map(
      (row) =>
        `{"agent_id":${JSON.stringify(row.agentId)},"timestamp":${JSON.stringify(row.timestamp)},` +
        `"role":${JSON.stringify(row.role)},"action_uuid":${JSON.stringify(row.actionUuid)},` +
        `"content":${row.json}}`,
    )
    .join(',')}]`;
  await prepared(db, 'insert_fed_messages', (d, name) =>
    d
      .insert(spiceMessages)
      // Every column in the table's order, as drizzle lists them for an insert from a select.
      .select(
        sql`select gen_random_uuid(), r.agent_id, r."timestamp", r.role, r.content, r.action_uuid,
          null::jsonb, null::timestamptz
          from json_to_recordset(${sql.placeholder('rows')}::json) as r(
            agent_id uuid, "timestamp" timestamptz, role text, content jsonb, action_uuid uuid)`,
      )
      .prepare(name),
  ).execute({ rows: payload });
  return new Map(rows.map((row) => [row, true]));
}

const inserters = new WeakMap<Db, (row: FedRow) => Promise<true | undefined>>();

/**
 * Stores a user message fed to the agent's model (with the conversation item it came from), and
 * answers its timestamp and stored JSON as appendSpice does. `db` is the database, not a
 * transaction (coalesced.ts).
 */
export async function appendFedMessage(
  db: Db,
  agentId: string,
  message: ModelMessage,
  actionUuid: string,
): Promise<{ timestamp: string; json: string }> {
  const { timestamp, json } = spiceValues(agentId, message, { actionUuid });
  let insert = inserters.get(db);
  if (!insert) {
    insert = coalesced((rows: FedRow[]) => insertFedRows(db, rows));
    inserters.set(db, insert);
  }
  await insert({ agentId, timestamp, role: message.role, json, actionUuid });
  return { timestamp, json };
}

/**
 * Feeds user messages the model has not seen yet into its context, each exactly once (keyed by
 * the message's action_uuid), and returns them as stored: `unfed` when the caller read them with
 * its step's row (StepRow), else read here. A new message resets the budget: the reset is skipped
 * when the caller knows the agent has spent nothing since its last message (`spentSinceMessage` 0,
 * as read in this run; only this run's charges change it).
 */
export async function syncUserMessages(
  db: Db,
  agentId: string,
  known: { spentSinceMessage?: number } = {},
  unfed?: readonly UnfedMessage[],
): Promise<StoredSpice[]> {
  const fresh = unfed ?? (await readUnfedMessages(db, agentId));
  const stored: StoredSpice[] = [];
  for (const item of fresh) {
    const username = typeof item.data.username === 'string' ? item.data.username : 'user';
    const content: UserContent = [
      { type: 'text', text: userText(item.data, username) },
      ...item.images.map((image) => ({
        type: 'image' as const,
        image: `${IMAGE_REF}${item.actionUuid}/${image.n}`,
        mediaType: image.mimeType,
      })),
    ];
    const { timestamp, json } = await appendFedMessage(
      db,
      agentId,
      { role: 'user', content },
      item.actionUuid,
    );
    // As a read would give it back: the stored JSON, not the object it was made from.
    stored.push({ message: { role: 'user', content: JSON.parse(json) as UserContent }, timestamp });
  }
  if (fresh.length && known.spentSinceMessage !== 0)
    await db.update(agents).set({ spentSinceMessage: 0 }).where(eq(agents.id, agentId));
  return stored;
}
