/**
 * The worker thread that runs PGlite for `pglite-thread.ts`. PGlite executes every statement
 * synchronously in WebAssembly; on the server's own thread each query stalled every other request
 * (about 40 % of the event loop with 100 agents starting at once, issue 15). Here it runs beside
 * the event loop on another core.
 *
 * Kept free of local runtime imports (only `import type`) so that Node can run the TypeScript
 * source directly (tests) as well as the compiled file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { ThreadError, ThreadMessage, ThreadRequest, ThreadStart } from './pglite-thread-protocol.js';

const port = parentPort!;
const start = workerData as ThreadStart;
const keepText = (value: string) => value;
/** A rollback asked for by the caller: thrown inside PGlite's transaction so that it rolls back. */
const ROLLBACK = Symbol('rollback');

interface OpenTransaction {
  tx: Transaction;
  finish: (commit: boolean) => void;
  settled: Promise<void>;
}

const transactions = new Map<number, OpenTransaction>();
const subscriptions = new Map<number, () => Promise<void>>();
const parserSets = new Map<string, Record<number, (value: string, typeId?: number) => unknown>>();

function post(message: ThreadMessage) {
  port.postMessage(message);
}

function serializeError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  const fields: ThreadError['fields'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
      fields[key] = value as string | number | boolean | null;
    }
  }
  return { message: error.message, name: error.name, fields };
}

/** PGlite's own parsers of the default text types, for a query that asks for others. */
const replaced: Record<number, (value: string, typeId?: number) => unknown> = {};

/**
 * The query's parsers: none for the database's own (no list sent: `ThreadStart.textTypes`), else
 * its text types on top of PGlite's parsers for the default ones it did not ask for.
 */
function parsersFor(textTypes: number[] | undefined) {
  if (!textTypes) return undefined;
  const key = textTypes.join(',');
  let parsers = parserSets.get(key);
  if (!parsers) {
    parsers = { ...replaced, ...Object.fromEntries(textTypes.map((oid) => [oid, keepText])) };
    parserSets.set(key, parsers);
  }
  return parsers;
}

/**
 * Opens a transaction and resolves once it has begun; it stays open, holding PGlite's transaction
 * lock as in-process callers would, until an `end` request decides commit or rollback.
 */
function begin(db: PGlite, id: number): Promise<void> {
  return new Promise((began, failed) => {
    let finish!: (commit: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (finish = resolve));
    let started = false;
    const settled: Promise<void> = db
      .transaction(async (tx) => {
        started = true;
        transactions.set(id, { tx, finish, settled });
        began();
        if (!(await decided)) throw ROLLBACK;
      })
      .catch((error: unknown) => {
        if (error !== ROLLBACK) throw error;
      })
      .finally(() => transactions.delete(id));
    // BEGIN itself failed (the callback never ran); a failed COMMIT is reported to `end`.
    settled.catch((error: unknown) => {
      if (!started) failed(error);
    });
  });
}

async function handle(db: PGlite, request: ThreadRequest): Promise<unknown> {
  switch (request.op) {
    case 'query': {
      const target = request.tx === undefined ? db : transactions.get(request.tx)?.tx;
      if (!target) throw new Error('The transaction has already ended.');
      const parsers = parsersFor(request.textTypes);
      return target.query(
        request.sql,
        request.params,
        parsers ? { rowMode: request.rowMode, parsers } : { rowMode: request.rowMode },
      );
    }
    case 'begin':
      await begin(db, request.id);
      return request.id;
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error('The transaction has already ended.');
      open.finish(request.commit);
      await open.settled;
      return null;
    }
    case 'listen': {
      const unsubscribe = await db.listen(request.channel, (payload) =>
        post({ subscription: request.id, payload }),
      );
      subscriptions.set(request.id, unsubscribe);
      return request.id;
    }
    case 'unlisten': {
      const unsubscribe = subscriptions.get(request.subscription);
      subscriptions.delete(request.subscription);
      await unsubscribe?.();
      return null;
    }
    case 'close':
      await db.close();
      return null;
  }
}

try {
  const db = await PGlite.create(start.dataDir, { startParams: start.startParams });
  // After create: its array parsers (made as it starts) must not replace these either.
  for (const oid of start.textTypes) {
    const own = db.parsers[oid];
    if (own) replaced[oid] = own;
    db.parsers[oid] = keepText;
  }
  port.on('message', (request: ThreadRequest) => {
    const fail = (error: unknown) => post({ id: request.id, ok: false, error: serializeError(error) });
    handle(db, request).then((value) => {
      try {
        post({ id: request.id, ok: true, value });
      } catch (error) {
        // An answer that cannot be cloned is that query's error, not the thread's end.
        fail(error);
      }
    }, fail);
  });
  post({ ready: true });
} catch (error) {
  post({ failed: serializeError(error) });
}
