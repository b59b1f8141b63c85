/**
 * PGlite on a worker thread, behind the part of PGlite's interface that drizzle's PGlite driver
 * and `client.ts` use: `query`, `transaction`, `listen` and `close`.
 *
 * PGlite runs every statement synchronously in WebAssembly. In the server's own thread that was
 * some 40 % of the event loop with 100 agents starting at once (issue 15), and one slow query
 * stalled every other request. On a worker thread the statements run on another core while the
 * event loop keeps serving; the one connection's semantics stay PGlite's own (statements in
 * order, a transaction holds the database until it ends).
 */
import { Worker } from 'node:worker_threads';
import type { ThreadError, ThreadMessage, ThreadRequest, ThreadStart } from './pglite-thread-protocol.js';

type Distribute<T> = T extends unknown ? Omit<T, 'id'> : never;
type RequestBody = Distribute<ThreadRequest>;

export interface QueryOptions {
  rowMode?: 'array' | 'object';
  /** drizzle hands some types back as text: identity parsers, which are all this supports. */
  parsers?: Record<number, (value: string, typeId?: number) => unknown>;
}

export interface QueryClient {
  query<T = unknown>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T>;
}

/**
 * The types drizzle's PGlite driver keeps as text in every query (dates, timestamps, intervals,
 * numeric[] and their arrays): the thread's default, so those queries send no parsers along.
 * `pglite-thread.test.ts` checks this against drizzle's own list.
 */
export const DRIZZLE_TEXT_TYPES = [1082, 1114, 1115, 1182, 1184, 1185, 1186, 1187, 1231];

const textTypesCache = new WeakMap<object, number[]>();

/**
 * The type OIDs whose parser keeps Postgres' text; any other parser cannot cross threads. drizzle
 * makes a parsers object per prepared query, so the usual answer is the shared default list.
 */
function textTypes(parsers: QueryOptions['parsers']): number[] {
  if (!parsers) return [];
  const cached = textTypesCache.get(parsers);
  if (cached) return cached;
  // Integer keys enumerate in ascending order, the order DRIZZLE_TEXT_TYPES is listed in.
  const oids: number[] = [];
  for (const key in parsers) {
    if (parsers[key]!('probe', Number(key)) !== 'probe') {
      throw new Error(`PGlite on a worker thread cannot run a custom parser (type ${key}).`);
    }
    oids.push(Number(key));
  }
  const answer =
    oids.length === DRIZZLE_TEXT_TYPES.length && oids.every((oid, i) => oid === DRIZZLE_TEXT_TYPES[i])
      ? DRIZZLE_TEXT_TYPES
      : oids;
  textTypesCache.set(parsers, answer);
  return answer;
}

function toError(error: ThreadError): Error {
  // The caller's stack (where the query was sent from) is the useful one.
  const made = Object.assign(new Error(error.message), error.fields);
  made.name = error.name;
  return made;
}

/** The worker's file: the compiled one beside this module, or the TypeScript source in tests. */
function workerUrl(): URL {
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return new URL(`./pglite-thread-worker.${extension}`, import.meta.url);
}

export class PgliteThread implements QueryClient {
  readonly #worker: Worker;
  readonly #pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  readonly #subscriptions = new Map<number, (payload: string) => void>();
  #nextId = 1;
  #stopped: Error | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (message: ThreadMessage) => this.#receive(message));
    worker.on('error', (error) => this.#stop(error));
    worker.on('exit', (code) => this.#stop(new Error(`exited with code ${code}`)));
    // Only work under way keeps the process alive, as with PGlite in-process.
    worker.unref();
  }

  /** Starts the thread and opens `dataDir` in it; rejects with PGlite's error when that fails. */
  static async start(dataDir: string, startParams: string[]): Promise<PgliteThread> {
    const start: ThreadStart = { dataDir, startParams, textTypes: DRIZZLE_TEXT_TYPES };
    // A small young generation: what the thread allocates lives for one query, and V8's default
    // (16 MB semi-spaces) stayed resident at idle (about 10 MB less idle RSS, measured).
    const worker = new Worker(workerUrl(), {
      workerData: start,
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`PGlite's thread exited with code ${code}.`));
      const onMessage = (message: ThreadMessage) => {
        if ('ready' in message) resolve();
        else if ('failed' in message) reject(toError(message.failed));
        else return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('error', reject);
      // A thread that ends without a word (killed, out of memory) must not leave the start waiting.
      worker.on('exit', onExit);
    }).catch(async (error: unknown) => {
      await worker.terminate();
      throw error;
    });
    return new PgliteThread(worker);
  }

  query<T = unknown>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<T> {
    return this.#queryIn(undefined, sql, params, options) as Promise<T>;
  }

  /** Runs `callback` in a transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(callback: (tx: QueryClient) => Promise<T>): Promise<T> {
    const tx = (await this.#call({ op: 'begin' })) as number;
    let ended = false;
    const client: QueryClient = {
      query: <R>(sql: string, params: unknown[] = [], options: QueryOptions = {}) => {
        if (ended) return Promise.reject(new Error('The transaction has already ended.'));
        return this.#queryIn(tx, sql, params, options) as Promise<R>;
      },
    };
    let result: T;
    try {
      result = await callback(client);
    } catch (error) {
      ended = true;
      // The callback's error is the one to report; a failed rollback only ends the transaction.
      await this.#call({ op: 'end', tx, commit: false }).catch(() => undefined);
      throw error;
    }
    ended = true;
    await this.#call({ op: 'end', tx, commit: true });
    return result;
  }

  /** LISTEN on `channel`; resolves once listening, with the function that stops it. */
  async listen(channel: string, onNotice: (payload: string) => void): Promise<() => Promise<void>> {
    const subscription = (await this.#call({ op: 'listen', channel })) as number;
    this.#subscriptions.set(subscription, onNotice);
    return async () => {
      if (!this.#subscriptions.delete(subscription) || this.#stopped) return;
      await this.#call({ op: 'unlisten', subscription });
    };
  }

  async close(): Promise<void> {
    if (this.#stopped) return;
    try {
      await this.#call({ op: 'close' });
    } finally {
      this.#stop(new Error('closed'));
      await this.#worker.terminate();
    }
  }

  #queryIn(tx: number | undefined, sql: string, params: unknown[], options: QueryOptions) {
    const types = textTypes(options.parsers);
    return this.#call({
      op: 'query',
      sql,
      params,
      rowMode: options.rowMode ?? 'object',
      // The thread's default goes unsaid: it has been its database's parsers since the start.
      ...(types === DRIZZLE_TEXT_TYPES ? {} : { textTypes: types }),
      ...(tx === undefined ? {} : { tx }),
    });
  }

  #call(body: RequestBody): Promise<unknown> {
    if (this.#stopped) {
      return Promise.reject(new Error(`The embedded database has stopped (${this.#stopped.message}).`));
    }
    const id = this.#nextId++;
    const answer = new Promise<unknown>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    if (this.#pending.size === 1) this.#worker.ref();
    try {
      this.#worker.postMessage({ ...body, id } as ThreadRequest);
    } catch (error) {
      // A parameter that cannot be cloned (a function, say): this query's error.
      this.#settle(id)?.reject(error as Error);
    }
    return answer;
  }

  #receive(message: ThreadMessage) {
    if ('subscription' in message) {
      this.#subscriptions.get(message.subscription)?.(message.payload);
      return;
    }
    if (!('id' in message)) return;
    const waiter = this.#settle(message.id);
    if (!waiter) return;
    if (message.ok) waiter.resolve(message.value);
    else waiter.reject(toError(message.error));
  }

  /** Takes request `id`'s waiter off the list; with none left the thread no longer holds the process. */
  #settle(id: number) {
    const waiter = this.#pending.get(id);
    if (!waiter) return undefined;
    this.#pending.delete(id);
    if (!this.#pending.size) this.#worker.unref();
    return waiter;
  }

  #stop(reason: Error) {
    if (this.#stopped) return;
    this.#stopped = reason;
    const error = new Error(`The embedded database has stopped (${reason.message}).`);
    for (const waiter of this.#pending.values()) waiter.reject(error);
    this.#pending.clear();
    this.#subscriptions.clear();
  }
}
