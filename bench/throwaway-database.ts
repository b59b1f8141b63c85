/** Throwaway Postgres databases for the Postgres figures, each dropped by its owner afterwards. */
import pg from 'pg';
import { undoOnInterrupt } from './cleanup.js';

/** The Postgres server the bench creates its databases on (DATABASE_URL, else the local default). */
export const adminDatabaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let made = 0;

/** A fresh database on the given server, dropped by the returned function; null when none answers. */
export async function throwawayDatabase(
  adminUrl = adminDatabaseUrl,
): Promise<{ url: string; drop: () => Promise<void> } | null> {
  // Two in the same millisecond (a figure's two runs) must not share a name.
  const name = `tandem_bench_${Date.now().toString(36)}_${(made++).toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
  } catch {
    return null;
  } finally {
    await admin.end().catch(() => undefined);
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = undoOnInterrupt(async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await client.end();
    }
  });
  return { url: url.toString(), drop };
}
