import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { DatabaseKind } from '@tandem/shared';
import * as schema from './schema/index.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import { PgliteThread } from './pglite-thread.js';
import { initPgliteDataDirApart, isFreshDataDir } from './init-pglite.js';
import { migrationsFolder, PGLITE_START_PARAMS } from './pglite-settings.js';

export type Schema = typeof schema;
/** The drizzle database, whichever driver is underneath: code never branches on the kind. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  readonly db: Db;
  readonly kind: DatabaseKind;
  /** Round-trips a trivial query; resolves to latency in ms, rejects when unreachable. */
  ping(): Promise<number>;
  /**
   * Subscribes to NOTIFY on `channel` (on Postgres over a connection of its own). `onLost` is
   * called once if notifications stop (the connection dropped): anything cached on the strength
   * of them must be dropped. Resolves once listening; the returned function unsubscribes.
   */
  listen(
    channel: string,
    onNotice: (payload: string) => void,
    onLost: () => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Called with every statement drizzle sends (tests count a code path's queries with it). */
export type QueryLogger = (query: string, params: unknown[]) => void;

export type DatabaseOptions = (
  | { kind: 'postgres'; url: string; poolSize?: number }
  /** `dataDir` undefined means an in-memory database (tests). */
  | { kind: 'pglite'; dataDir?: string }
) & { logQuery?: QueryLogger };

/**
 * What the server's connections are called in Postgres (`pg_stat_activity.application_name`), so
 * an operator can tell its pool and its LISTEN connection apart from the agent queue's
 * (`tandem-agent-queue`) and from other programs. Sent as `fallback_application_name`: an
 * `application_name` the operator sets (in the database URL, or `PGAPPNAME`) wins.
 */
export const POOL_APPLICATION_NAME = 'tandem';
export const LISTEN_APPLICATION_NAME = 'tandem-listen';

/** Arbitrary constant: serialises migrations when several servers start against one Postgres. */
const MIGRATION_LOCK_KEY = 7_261_513;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const logger = options.logQuery ? { logQuery: options.logQuery } : undefined;
  return options.kind === 'postgres'
    ? openPostgres(options.url, options.poolSize, logger)
    : openPglite(options.dataDir, logger);
}

type DrizzleLogger = { logQuery: QueryLogger } | undefined;

async function openPostgres(url: string, poolSize = 10, logger?: DrizzleLogger): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    fallback_application_name: POOL_APPLICATION_NAME,
  });
  // An idle connection closed by the server (a restart, or a test database dropped WITH (FORCE)
  // while the pool winds down) must not crash the process: the next query reports the problem.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema, logger }) as unknown as Db;
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } catch (error) {
    client.release();
    await pool.end();
    throw error;
  }
  client.release();
  return {
    db,
    kind: 'postgres',
    ping: () => timeQuery(db),
    listen: (channel, onNotice, onLost) => listenPostgres(url, channel, onNotice, onLost),
    close: () => pool.end(),
  };
}

async function openPglite(dataDir: string | undefined, logger?: DrizzleLogger): Promise<Database> {
  let lock: DataDirLock | undefined;
  let client: PgliteThread | PGlite | undefined;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    // Two processes opening one PGlite directory both "succeed" and silently lose writes.
    lock = acquireDataDirLock(dataDir);
  }
  try {
    if (dataDir && isFreshDataDir(dataDir)) await initPgliteDataDirApart(dataDir);
    // A data directory is a server's database: PGlite runs on a worker thread beside its event
    // loop (pglite-thread.ts). In-memory databases (tests) stay in-process.
    client = dataDir
      ? await PgliteThread.start(dataDir, PGLITE_START_PARAMS)
      : await PGlite.create({ startParams: PGLITE_START_PARAMS });
    // drizzle's PGlite driver uses only the query, transaction and listen that PgliteThread has.
    const opened = client;
    const db = drizzlePglite(opened as PGlite, { schema, logger });
    await migratePglite(db, { migrationsFolder });
    return {
      db: db as unknown as Db,
      kind: 'pglite',
      ping: () => timeQuery(db as unknown as Db),
      // PGlite hands notifications to the callback as it reads the committing query's answer (on
      // the worker thread too: its messages arrive in order), and there is no connection to lose.
      listen: async (channel, onNotice) => {
        const unsubscribe = await opened.listen(channel, onNotice);
        return () => unsubscribe();
      },
      close: async () => {
        await opened.close();
        lock?.release();
      },
    };
  } catch (error) {
    await client?.close().catch(() => undefined);
    lock?.release();
    throw error;
  }
}

async function listenPostgres(
  url: string,
  channel: string,
  onNotice: (payload: string) => void,
  onLost: () => void,
): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url, fallback_application_name: LISTEN_APPLICATION_NAME });
  let closing = false;
  let lost = false;
  const lose = () => {
    if (closing || lost) return;
    lost = true;
    onLost();
  };
  client.on('error', lose);
  client.on('end', lose);
  client.on('notification', (message) => {
    if (message.channel === channel) onNotice(message.payload ?? '');
  });
  await client.connect();
  try {
    await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
  } catch (error) {
    closing = true;
    await client.end().catch(() => undefined);
    throw error;
  }
  return async () => {
    closing = true;
    await client.end().catch(() => undefined);
  };
}

async function timeQuery(db: Db): Promise<number> {
  const started = performance.now();
  await db.execute(sql`select 1`);
  return Math.round((performance.now() - started) * 100) / 100;
}
