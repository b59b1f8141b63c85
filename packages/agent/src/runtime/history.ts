import { agents, conversationItems, eventImages, prepared, spiceMessages, type Db } from '@tandem/db';
import type { ModelMessage, ToolCallPart } from 'ai';
import { and, asc, eq, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { storableDeep } from '../sandbox/storable-text.js';
import { nextTimestamp } from './clock.js';
import { parsedJson } from './json-column.js';

export interface ResponseStats {
  input_tokens: number;
  cached_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  /** Seconds. */
  time: number;
  /** Provider cost in cents. */
  cost: number;
}

/** The model's context: every spice message not yet folded into a summary, oldest first. */
export async function loadHistory(
  db: Db,
  agentId: string,
  limits: ImageLimits = MODEL_IMAGE_LIMITS,
): Promise<ModelMessage[]> {
  return hydrateImages(db, (await readHistory(db, agentId, null)).messages, limits);
}

/** The live spice messages newer than `after` (all when null), hydrated, with the newest's time. */
async function readHistory(db: Db, agentId: string, after: string | null) {
  const rows = await (after === null
    ? prepared(db, 'read_history', (d, name) => historyQuery(d).prepare(name)).execute({ agentId })
    : prepared(db, 'read_history_after', (d, name) =>
        historyQuery(d, gt(spiceMessages.timestamp, sql.placeholder('after'))).prepare(name),
      ).execute({ agentId, after }));
  const messages = rows.map((row) => ({ role: row.role, content: row.content }) as ModelMessage);
  return { messages, newest: rows.at(-1)?.timestamp ?? after, images: imageRefs(messages).length > 0 };
}

/** The agent's live spice messages (those `newer` also matches), oldest first. */
function historyQuery(db: Db, newer?: SQL) {
  const live = and(eq(spiceMessages.agentId, sql.placeholder('agentId')), isNull(spiceMessages.summarizedAt));
  return db
    .select({ role: spiceMessages.role, content: spiceMessages.content, timestamp: spiceMessages.timestamp })
    .from(spiceMessages)
    .where(newer ? and(live, newer) : live)
    .orderBy(asc(spiceMessages.timestamp));
}

/**
 * The model's context as one run sees it: read in full once, then only what was stored since
 * (tool results, the model's replies, user messages, auto-review notes), so a step costs one
 * small read however long the conversation. Spice is written by the run that holds the agent,
 * in time order, so "newer than the newest held" is everything new. New images, and a summary,
 * read it all again: which images go to the model is decided over the whole context.
 */
export class RunHistory {
  private messages: ModelMessage[] | undefined;
  private newest: string | null = null;
  /** Set by `answered()`: the next `current()` has nothing to read. */
  private upToDate = false;

  constructor(
    private readonly db: Db,
    private readonly agentId: string,
    private readonly limits: ImageLimits = MODEL_IMAGE_LIMITS,
  ) {}

  async current(): Promise<ModelMessage[]> {
    if (!this.messages) return this.reload();
    if (this.upToDate) {
      this.upToDate = false;
      return this.messages;
    }
    const added = await readHistory(this.db, this.agentId, this.newest);
    if (!added.messages.length) return this.messages;
    if (added.images) return this.reload();
    this.messages = [...this.messages, ...added.messages];
    this.newest = added.newest;
    return this.messages;
  }

  /**
   * Messages this run just stored, taken as stored instead of read back: the next read starts
   * after them. Images are hydrated from a full read, as for any new image.
   */
  async stored(added: StoredSpice[]): Promise<ModelMessage[]> {
    if (!this.messages || imageRefs(added.map((a) => a.message)).length) return this.reload();
    this.messages = [...this.messages, ...added.map((a) => a.message)];
    this.newest = added.at(-1)?.timestamp ?? this.newest;
    return this.messages;
  }

  /**
   * The model's answer, just stored by this run, taken as stored; the next `current()` then reads
   * nothing. That read would find only the answer: the run is its agent's only writer (one run
   * per agent at a time) and writes nothing else before it. Tool results are stored after that
   * read, and the read after them queries as usual.
   */
  async answered(added: StoredSpice[]): Promise<void> {
    await this.stored(added);
    this.upToDate = this.messages !== undefined;
  }

  /** The run's start found no live context (a new agent): the first `current()` reads nothing. */
  startEmpty(): void {
    this.messages = [];
    this.newest = null;
    this.upToDate = true;
  }

  /** After a summary: the next read starts from the summary. */
  invalidate(): void {
    this.messages = undefined;
    this.upToDate = false;
  }

  private async reload(): Promise<ModelMessage[]> {
    this.upToDate = false;
    const all = await readHistory(this.db, this.agentId, null);
    this.messages = await hydrateImages(this.db, all.messages, this.limits);
    this.newest = all.newest;
    return this.messages;
  }
}

/** Image parts are stored as references (`tandem-image:{action_uuid}/{n}`), not as bytes. */
export const IMAGE_REF = 'tandem-image:';

/**
 * What one model request carries of the conversation's images. Every step re-sends the history, so
 * without a bound a conversation with many large images would resend (and hold in memory) all of
 * them at every step. The newest images within the bounds go as bytes; older ones as a note.
 */
export interface ImageLimits {
  images: number;
  bytes: number;
}
export const MODEL_IMAGE_LIMITS: ImageLimits = { images: 20, bytes: 20 * 1024 * 1024 };
const OMITTED_IMAGE = '[an earlier image is not re-sent to the model: only the newest images are kept]';

function imageRefs(messages: ModelMessage[]): string[] {
  return messages.flatMap((m) =>
    m.role === 'user' && Array.isArray(m.content)
      ? m.content.flatMap((p) =>
          p.type === 'image' && typeof p.image === 'string' && p.image.startsWith(IMAGE_REF) ? [p.image] : [],
        )
      : [],
  );
}

async function hydrateImages(db: Db, messages: ModelMessage[], limits: ImageLimits): Promise<ModelMessage[]> {
  const refs = imageRefs(messages);
  if (!refs.length) return messages;
  // Newest first: only those may be sent, so only those are read.
  const newest = [...new Set(refs.reverse())].slice(0, limits.images);
  const uuids = [...new Set(newest.map((ref) => ref.slice(IMAGE_REF.length).split('/')[0]!))];
  const rows = await db
    .select({ actionUuid: eventImages.actionUuid, n: eventImages.n, bytes: eventImages.bytes })
    .from(eventImages)
    .where(inArray(eventImages.actionUuid, uuids));
  const stored = new Map(rows.map((r) => [`${IMAGE_REF}${r.actionUuid}/${r.n}`, r.bytes]));
  const sent = new Map<string, Uint8Array>();
  let total = 0;
  for (const ref of newest) {
    const found = stored.get(ref);
    if (!found || total + found.length > limits.bytes) continue;
    total += found.length;
    sent.set(ref, new Uint8Array(found));
  }
  return messages.map((m) =>
    m.role === 'user' && Array.isArray(m.content)
      ? {
          ...m,
          content: m.content.map((p) => {
            if (p.type !== 'image' || typeof p.image !== 'string' || !p.image.startsWith(IMAGE_REF)) return p;
            const bytes = sent.get(p.image);
            if (bytes) return { ...p, image: bytes };
            // A reference the model cannot resolve would be read as base64: say what happened instead.
            return {
              type: 'text' as const,
              text:
                stored.has(p.image) || !newest.includes(p.image)
                  ? OMITTED_IMAGE
                  : '[an attached image is no longer available]',
            };
          }),
        }
      : m,
  );
}

/** The insert of one spice message, its values as placeholders named after spiceValues' keys. */
function spiceInsert(db: Db) {
  const p = (name: string) => sql.placeholder(name);
  return db.insert(spiceMessages).values({
    agentId: p('agentId'),
    timestamp: p('timestamp'),
    role: p('role'),
    // Both as JSON text, not through the columns' encoder: drizzle encodes a null placeholder
    // as JSON null, and the content's text is also what the caller may read back.
    content: sql`${p('content')}::jsonb`,
    actionUuid: p('actionUuid'),
    responseStats: sql`${p('responseStats')}::jsonb`,
  });
}

/** spiceInsert's values for a message, with its timestamp and stored JSON for the caller. */
export function spiceValues(
  agentId: string,
  message: ModelMessage,
  extra: { actionUuid?: string; responseStats?: ResponseStats } = {},
): { timestamp: string; json: string; values: Record<string, unknown> } {
  const timestamp = nextTimestamp();
  // Tool results and model text may carry NUL or lone surrogates, which jsonb rejects.
  const json = JSON.stringify(storableDeep(message.content));
  const values = {
    agentId,
    timestamp,
    role: message.role,
    content: json,
    actionUuid: extra.actionUuid ?? null,
    responseStats: extra.responseStats ? JSON.stringify(extra.responseStats) : null,
  };
  return { timestamp, json, values };
}

export async function appendSpice(
  db: Db,
  agentId: string,
  message: ModelMessage,
  extra: { actionUuid?: string; responseStats?: ResponseStats } = {},
): Promise<{ timestamp: string; json: string }> {
  const { timestamp, json, values } = spiceValues(agentId, message, extra);
  await prepared(db, 'append_spice', (d, name) => spiceInsert(d).prepare(name)).execute(values);
  return { timestamp, json };
}

/** Tool calls of the last assistant message that have no stored result yet (a crash mid-step). */
export function pendingToolCalls(history: ModelMessage[]): ToolCallPart[] {
  const lastAssistant = history.findLastIndex((m) => m.role === 'assistant');
  if (lastAssistant < 0) return [];
  const assistant = history[lastAssistant]!;
  if (typeof assistant.content === 'string') return [];
  const calls = assistant.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
  const answered = new Set(
    history
      .slice(lastAssistant + 1)
      .flatMap((m) =>
        m.role === 'tool' ? m.content.map((p) => ('toolCallId' in p ? p.toolCallId : '')) : [],
      ),
  );
  return calls.filter((call) => !answered.has(call.toolCallId));
}

interface ReviewComment {
  path?: string;
  line?: number;
  body?: string;
}

/** Where a message from the code host was written, so the model knows which thread to answer. */
function codeHostPlace(data: Record<string, unknown>): string {
  if (typeof data.number !== 'number' || typeof data.repository_name !== 'string') return '';
  const url = typeof data.html_url === 'string' ? ` (${data.html_url})` : '';
  return ` [on the code host, ${data.repository_name}#${data.number}${url}]`;
}

export function userText(data: Record<string, unknown>, username: string): string {
  const message = typeof data.message === 'string' ? data.message : '';
  const parts = [`${username}${codeHostPlace(data)}: ${message}`.trim()];
  const comments = Array.isArray(data.review_comments) ? (data.review_comments as ReviewComment[]) : [];
  for (const c of comments)
    parts.push(`Review comment on ${c.path ?? '?'}:${c.line ?? '?'}: ${c.body ?? ''}`);
  return parts.join('\n');
}

/** A spice message just stored, with its timestamp (RunHistory takes it without reading it back). */
export interface StoredSpice {
  message: ModelMessage;
  timestamp: string;
}

/** A user message the model has not been fed yet, as read: its key, its item's data, its images. */
export interface UnfedMessage {
  actionUuid: string;
  data: Record<string, unknown>;
  images: { n: number; mimeType: string }[];
}

/**
 * The user messages its model has not been fed yet of the agent a select from (or an update of)
 * `agents` reads, oldest first, with their images, as JSON: the step's row brings them this way
 * (agent-row.ts), so a step feeds them without a read of their own. Spelled with table names, as
 * the requester column is: drizzle writes a single-table statement's columns bare.
 */
export const unfedMessagesColumn = sql<UnfedMessage[] | string>`(
  select coalesce(json_agg(json_build_object(
    'actionUuid', c.action_uuid, 'data', c.data, 'images', (
      select coalesce(json_agg(json_build_object('n', i.n, 'mimeType', i.mime_type) order by i.n), '[]'::json)
      from ${eventImages} i where i.action_uuid = c.action_uuid)) order by c.timestamp), '[]'::json)
  ${unfedFrom()})`;

/** Whether the agent a select from `agents` reads has user messages its model was not fed yet. */
export const hasUnfedMessages = sql<boolean>`exists (select 1 ${unfedFrom()})`;

/** The unfed user messages (`c`) of the agent a select from (or an update of) `agents` reads. */
function unfedFrom() {
  return sql`from ${conversationItems} c
  where c.agent_id = "agents"."id" and c.item_type = 'message' and c.user_id is not null
    and c.action_uuid not in (select s.action_uuid from ${spiceMessages} s
      where s.agent_id = "agents"."id" and s.action_uuid is not null)`;
}

/** The agent's user messages not yet fed to its model, oldest first (unfedMessagesColumn). */
export async function readUnfedMessages(db: Db, agentId: string): Promise<UnfedMessage[]> {
  const [row] = await prepared(db, 'unfed_messages', (d, name) =>
    d
      .select({ unfed: unfedMessagesColumn })
      .from(agents)
      .where(eq(agents.id, sql.placeholder('agentId')))
      .prepare(name),
  ).execute({ agentId });
  return row ? parsedJson(row.unfed) : [];
}

/** Folds everything so far into a summary: the loop then starts from the summary alone. */
export async function applySummary(db: Db, agentId: string, summary: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(spiceMessages)
      .set({ summarizedAt: sql`now()` })
      .where(and(eq(spiceMessages.agentId, agentId), isNull(spiceMessages.summarizedAt)));
    await appendSpice(tx, agentId, {
      role: 'user',
      content: [
        { type: 'text', text: `Summary of the work so far (earlier context was summarized):\n${summary}` },
      ],
    });
  });
}
