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
import { parse, PGlite, protocol, type QueryOptions, type Transaction } from '@electric-sql/pglite';
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
type Messages = Awaited<ReturnType<PGlite['execProtocolStream']>>;
const { serialize } = protocol;

/**
 * Named prepared statements for the SQL texts the server repeats. PGlite's own `query` parses,
 * describes, binds and executes every statement afresh, one call into Postgres per protocol
 * message; a statement prepared once then costs one call that binds and executes it, about half
 * the time of a simple one (measured: a primary-key select 143 → 60 µs, issue 15). A text is
 * prepared the second time it is seen, so one-off texts never take a place; at most
 * `STATEMENT_LIMIT` texts are remembered, the least recently used closed first.
 */
const STATEMENT_LIMIT = 256;
interface Remembered {
  /** The prepared statement's name, once prepared. */
  name?: string;
  /** Its parameters' type OIDs, as Postgres described them. */
  types?: number[];
}
const statements = new Map<string, Remembered>();
/** Evicted statements, closed at the start of the next call into Postgres. */
let toClose: string[] = [];
let nextStatement = 1;
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

function joined(messages: Uint8Array[]): Uint8Array {
  const closes = toClose.map((name) => serialize.close({ type: 'S', name }));
  toClose = [];
  const parts = [...closes, ...messages];
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** One call into Postgres with these protocol messages (and any pending closes) in order. */
function send(db: PGlite, messages: Uint8Array[]): Promise<Messages> {
  return db.execProtocolStream(joined(messages), { syncToFs: false });
}

function remember(sql: string): Remembered {
  let known = statements.get(sql);
  if (known) statements.delete(sql);
  else known = {};
  statements.set(sql, known); // most recently used last
  if (statements.size > STATEMENT_LIMIT) {
    const [oldest, evicted] = statements.entries().next().value!;
    statements.delete(oldest);
    if (evicted.name) toClose.push(evicted.name);
  }
  return known;
}

/** Postgres' errors that mean a remembered statement is gone or no longer fits its text. */
function statementStale(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '26000' || (code === '0A000' && /cached plan/.test((error as Error).message));
}

function serialized(db: PGlite, params: unknown[], types: number[]) {
  return params.map((param, i) => {
    if (param === null || param === undefined) return null;
    const serializer = db.serializers[types[i]!];
    return serializer ? serializer(param) : String(param);
  });
}

/**
 * `query` as PGlite's own does it (same locks, messages, parsing and errors), with fewer calls
 * into Postgres: parse and describe in one, bind to sync in the other, and only the second for a
 * remembered statement.
 */
async function runQuery(db: PGlite, sql: string, params: unknown[], options: QueryOptions, inTx: boolean) {
  const known = remember(sql);
  let messages: Messages;
  try {
    if (!known.name) {
      const name = known.types ? `tandem_${nextStatement++}` : '';
      let described: Messages;
      try {
        described = await send(db, [
          serialize.parse({ text: sql, name }),
          serialize.describe({ type: 'S', name }),
        ]);
      } catch (error) {
        await send(db, [serialize.sync()]);
        throw error;
      }
      known.types = parse.parseDescribeStatementResults(described);
      if (name) known.name = name;
    }
    try {
      messages = await execute(db, known, params);
    } catch (error) {
      if (!known.name || !statementStale(error)) throw error;
      // Dropped (DEALLOCATE) or outdated by a schema change: close and forget every remembered
      // statement (closing one that is gone is no error) and, outside a transaction (which the
      // error has aborted), run the text afresh once.
      for (const other of statements.values()) if (other.name) toClose.push(other.name);
      statements.clear();
      if (inTx) throw error;
      return await runQuery(db, sql, params, options, inTx);
    }
  } catch (error) {
    if (error instanceof Error) Object.assign(error, { query: sql });
    throw error;
  }
  if (!inTx) await db.syncToFs();
  return parse.parseResults(messages, db.parsers, options)[0]!;
}

function execute(db: PGlite, known: Remembered, params: unknown[]) {
  return send(db, [
    serialize.bind({ statement: known.name ?? '', values: serialized(db, params, known.types!) }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ]);
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
      const open = request.tx === undefined ? undefined : transactions.get(request.tx);
      if ((request.tx !== undefined && !open) || open?.tx.closed) {
        throw new Error('The transaction has already ended.');
      }
      const parsers = parsersFor(request.textTypes);
      const options = parsers ? { rowMode: request.rowMode, parsers } : { rowMode: request.rowMode };
      await db._checkReady();
      // PGlite's own locks: one statement at a time, and none outside a transaction while one is open.
      const run = () =>
        db._runExclusiveQuery(() => runQuery(db, request.sql, request.params, options, Boolean(open)));
      return open ? run() : db._runExclusiveTransaction(run);
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
