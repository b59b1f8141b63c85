import { randomUUID } from 'node:crypto';
import type { Database } from '@tandem/db';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { PolledJson } from '../../http/polled-json.js';
import { InvalidatedCache } from './invalidated-cache.js';

/** The channel the triggers of migration 0018 notify on. */
export const CHANGE_CHANNEL = 'tandem_changes';
const MAX_ENTRIES = 50_000;
/**
 * The longest a polled answer is kept even without a notice: a notice that went missing (none
 * should) costs a few seconds of an old answer, not an open tab that never sees its agent's news.
 * One query per agent per 5 s is nothing beside the polls it answers.
 */
const MAX_AGE_MS = 5_000;
const RELISTEN_MS = [1_000, 5_000, 30_000];
/** How long `settled()` waits for its own notice before giving up (and emptying the caches). */
const SETTLE_TIMEOUT_MS = 2_000;

/** What the latest-timestamp poll needs of an agent: its time and who may see it. */
export interface PolledAgent {
  latest: string | null;
  creatorId: string;
  installationId: number;
  agentsPublic: boolean | null;
  /** 'party' for the public party agents, which anyone may read. */
  purpose: string | null;
}

/**
 * In-process caches behind the polls every open tab makes every few seconds (latest-timestamp,
 * status-counts), kept true by the database's change notices (and 5 s at most, MAX_AGE_MS): a poll
 * answered from memory is as fresh as a query, give or take the notice's delivery (milliseconds),
 * in every server process, whoever made the change. While notices do not flow (before start,
 * after the listening connection dropped) the caches keep nothing and every poll queries.
 */
export class PollCache {
  private listening = false;
  private stopped = false;
  private unlisten: (() => Promise<void>) | undefined;
  private retry: NodeJS.Timeout | undefined;
  private attempt = 0;
  private readonly enabled = () => this.listening;
  /** Barrier notices sent by `settled()` and not yet heard back: token → resolve. */
  private readonly barriers = new Map<string, () => void>();
  private nextBarrier = 0;
  /** The barrier on its way, and the one queued behind it that new `settled()` calls join. */
  private sentBarrier: Promise<void> | undefined;
  private queuedBarrier: Promise<void> | undefined;
  // Other processes' barriers share the channel: a token names its process too.
  private readonly instance = randomUUID();
  /** agent id → PolledAgent. */
  readonly agents = this.cache<PolledAgent>();
  /** `${installation}/${user}` → member or not. */
  readonly members = this.cache<boolean>();
  /**
   * user id → the status-counts answer as sent: serialized once per read of the database and
   * compressed once per encoding, rather than on every poll (http/polled-json.ts).
   */
  readonly statusCounts = this.cache<PolledJson>();

  /** One of the caches: bounded, emptied by notices, and kept MAX_AGE_MS at most. */
  private cache<V>(): InvalidatedCache<V> {
    return new InvalidatedCache<V>(MAX_ENTRIES, this.enabled, { maxAgeMs: MAX_AGE_MS });
  }

  constructor(
    private readonly database: Pick<Database, 'listen' | 'db'>,
    private readonly log?: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.listen();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    for (const resolve of this.barriers.values()) resolve();
    this.listening = false;
    this.clear();
    await this.unlisten?.();
    this.unlisten = undefined;
  }

  /**
   * Resolves once every change committed before the call has reached the caches. Postgres hands
   * notices to listeners in commit order, so hearing back a notice of our own sent now means every
   * earlier one was applied. Mutating routes await it before answering, so a client that polls
   * right after its own change never reads the value from before it (read-your-writes).
   *
   * Calls share barriers, as a database shares a commit among the transactions waiting for it: a
   * burst of mutating requests (a hundred agents created at once) would otherwise send a statement
   * each. A call made while no barrier is on its way sends one; a call made while one is (it may
   * have gone out before the caller's change committed) waits for the next, sent when that one is
   * heard, which every later caller joins until it goes out.
   */
  settled(): Promise<void> {
    if (!this.listening) return Promise.resolve();
    if (this.queuedBarrier) return this.queuedBarrier;
    if (!this.sentBarrier) return this.sendBarrier();
    const queued = this.sentBarrier
      .catch(() => undefined)
      .then(() => {
        this.queuedBarrier = undefined;
        return this.sendBarrier();
      });
    this.queuedBarrier = queued;
    return queued;
  }

  private sendBarrier(): Promise<void> {
    const sent = this.barrier().finally(() => {
      if (this.sentBarrier === sent) this.sentBarrier = undefined;
    });
    this.sentBarrier = sent;
    return sent;
  }

  private async barrier(): Promise<void> {
    if (!this.listening) return;
    const token = `${this.instance}.${this.nextBarrier++}`;
    const heard = new Promise<void>((resolve) => this.barriers.set(token, resolve));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), SETTLE_TIMEOUT_MS);
    });
    try {
      await this.database.db.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${`s:${token}`})`);
      if ((await Promise.race([heard, timedOut])) === 'timeout') {
        // Notices are late or lost: keep nothing rather than risk an old answer.
        this.log?.warn('poll cache: a change notice took over 2 s; caches emptied');
        this.clear();
      }
    } finally {
      clearTimeout(timer);
      this.barriers.delete(token);
    }
  }

  /** Applies one change notice (exposed for tests of the parsing). */
  apply(payload: string): void {
    const [kind, id, creator] = payload.split(':');
    if (kind === 's') {
      // A barrier of settled(), from this process or another (those are not ours to resolve).
      if (id) this.barriers.get(id)?.();
    } else if (kind === 'a' && id && creator) {
      this.agents.invalidate(id);
      this.statusCounts.invalidate(creator);
    } else if (kind === 'r' && id) {
      this.statusCounts.invalidate(id);
    } else {
      // 'x' (who may see what changed) and anything unexpected: forget everything.
      this.clear();
    }
  }

  private clear(): void {
    this.agents.clear();
    this.members.clear();
    this.statusCounts.clear();
  }

  private async listen(): Promise<void> {
    try {
      this.unlisten = await this.database.listen(
        CHANGE_CHANNEL,
        (payload) => this.apply(payload),
        () => this.lost(),
      );
      if (this.stopped) {
        await this.unlisten();
        return;
      }
      this.attempt = 0;
      this.listening = true;
    } catch (error) {
      this.log?.warn({ err: error }, 'poll cache: cannot listen for changes; polls query the database');
      this.scheduleRetry();
    }
  }

  private lost(): void {
    this.listening = false;
    this.clear();
    for (const resolve of this.barriers.values()) resolve();
    this.unlisten = undefined;
    this.log?.warn('poll cache: change notices stopped; polls query the database until they resume');
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    const delay = RELISTEN_MS[Math.min(this.attempt++, RELISTEN_MS.length - 1)];
    this.retry = setTimeout(() => void this.listen(), delay);
    this.retry.unref();
  }
}
