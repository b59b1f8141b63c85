import { createHash } from 'node:crypto';
import { inArray, lt } from 'drizzle-orm';
import { webhookDeliveries, type Db } from '@tandem/db';

/**
 * How old a delivery we can date may be. GitHub lets an App's owner redeliver deliveries of the
 * past 3 days, so those are still accepted; anything older is refused as a possible replay.
 */
export const WEBHOOK_MAX_AGE_MS = 72 * 60 * 60 * 1000;
/**
 * How long delivery rows are kept: the age window plus a day, so a replay of a dated delivery is
 * either still in the table (a duplicate) or older than the window (refused).
 */
export const DELIVERY_RETENTION_MS = WEBHOOK_MAX_AGE_MS + 24 * 60 * 60 * 1000;

/** Event / action pairs whose payload carries the moment of the event in a signed field. */
const DATED: Record<string, { actions: string[]; fields: [object: string, field: string][] }> = {
  issues: {
    actions: ['opened', 'closed', 'reopened'],
    fields: [
      ['issue', 'updated_at'],
      ['issue', 'closed_at'],
      ['issue', 'created_at'],
    ],
  },
  pull_request: {
    actions: ['opened', 'closed', 'reopened'],
    fields: [
      ['pull_request', 'updated_at'],
      ['pull_request', 'closed_at'],
      ['pull_request', 'created_at'],
    ],
  },
  issue_comment: { actions: ['created'], fields: [['comment', 'created_at']] },
  pull_request_review_comment: { actions: ['created'], fields: [['comment', 'created_at']] },
  pull_request_review: { actions: ['submitted'], fields: [['review', 'submitted_at']] },
};

/**
 * When the event happened, from the signed body, for the actions that set one of its timestamps
 * (opening, closing or reopening sets updated_at; a new comment its created_at). Undefined for
 * every other delivery: GitHub signs no timestamp, and e.g. an installation's updated_at need
 * not move when a repository is added, so those cannot be dated.
 */
export function deliveryTime(event: string, payload: unknown): Date | undefined {
  const rule = DATED[event];
  const body = payload as Record<string, unknown> | null;
  if (!rule || !body || !rule.actions.includes(String(body.action))) return undefined;
  let newest: number | undefined;
  for (const [object, field] of rule.fields) {
    const value = (body[object] as Record<string, unknown> | undefined)?.[field];
    const ms =
      typeof value === 'string' ? Date.parse(value) : typeof value === 'number' ? value * 1000 : Number.NaN;
    if (Number.isFinite(ms)) newest = Math.max(newest ?? ms, ms);
  }
  return newest === undefined ? undefined : new Date(newest);
}

/**
 * The key a dated delivery's signed body is remembered by. X-GitHub-Delivery is not covered by
 * the signature, so a replay could come with a fresh id; its body cannot change.
 */
export function payloadKey(raw: string): string {
  return `sha256:${createHash('sha256').update(raw).digest('hex')}`;
}

/** Drops delivery rows past the retention; the received_at index keeps this cheap. */
export async function pruneDeliveries(db: Db, now = new Date()): Promise<void> {
  await db
    .delete(webhookDeliveries)
    .where(lt(webhookDeliveries.receivedAt, new Date(now.getTime() - DELIVERY_RETENTION_MS)));
}

/**
 * Records a delivery under each of its keys (header id, signed-body key); false when any key was
 * seen before (a replay), in which case nothing of this delivery stays recorded. The header id's
 * row carries the job: its payload waits there for the webhook queue (`payload` undefined for
 * events without a handler, which are recorded as done).
 */
export async function recordDelivery(
  db: Db,
  keys: string[],
  row: {
    deliveryId: string;
    event: string;
    action: string | null;
    installationId: number | null;
    requestId: string;
  },
  payload: string | undefined,
): Promise<boolean> {
  const { deliveryId, ...common } = row;
  const now = new Date();
  const inserted: string[] = [];
  for (const key of keys) {
    const job = key === deliveryId && payload !== undefined;
    const [created] = await db
      .insert(webhookDeliveries)
      .values({
        deliveryId: key,
        ...common,
        ...(job ? { payload, nextAttemptAt: now } : { processedAt: now }),
      })
      .onConflictDoNothing()
      .returning({ deliveryId: webhookDeliveries.deliveryId });
    if (!created) {
      await forgetDeliveries(db, inserted);
      return false;
    }
    inserted.push(key);
  }
  return true;
}

/** Forgets the keys of a delivery that turned out to be a replay under another of its keys. */
async function forgetDeliveries(db: Db, keys: string[]): Promise<void> {
  await db.delete(webhookDeliveries).where(inArray(webhookDeliveries.deliveryId, keys));
}
