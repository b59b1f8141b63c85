import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from './testing/index.js';
import { installations, memberships, users } from './schema/index.js';
import { DataDirLockedError, LISTEN_APPLICATION_NAME, openDatabase, POOL_APPLICATION_NAME } from './index.js';
import { isFreshDataDir } from './init-pglite.js';

describe.each(testDatabaseKinds())('database on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it('applies the migrations and answers a ping', async () => {
    expect(database.kind).toBe(kind);
    expect(await database.ping()).toBeGreaterThanOrEqual(0);
  });

  it('stores users, installations and memberships with their constraints', async () => {
    const { db } = database;
    const [ada] = await db.insert(users).values({ githubId: 1, username: 'ada', admin: true }).returning();
    await db.insert(installations).values({ id: 100, accountLogin: 'acme', accountType: 'Organization' });
    await db.insert(memberships).values({ userId: ada!.id, installationId: 100, role: 'admin' });
    const rows = await db.select().from(memberships).where(eq(memberships.userId, ada!.id));
    expect(rows).toEqual([expect.objectContaining({ installationId: 100, role: 'admin' })]);
    await expect(db.insert(users).values({ githubId: 1, username: 'again' })).rejects.toThrow();
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('Postgres connection names', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await database?.destroy();
  });

  /** The application names of this database's connections, the asking one's included, once each. */
  async function namesSeen(db: TestDatabase['db']): Promise<string[]> {
    const rows = (await db.execute(
      sql`select application_name as name from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()
          union all select current_setting('application_name')`,
    )) as unknown as { rows: { name: string }[] };
    return [...new Set(rows.rows.map((row) => row.name))].sort();
  }

  it("names the pool's and the LISTEN connection's so an operator can tell them apart", async () => {
    const stop = await database.listen(
      'tandem_names_test',
      () => undefined,
      () => undefined,
    );
    try {
      expect(await namesSeen(database.db)).toEqual([LISTEN_APPLICATION_NAME, POOL_APPLICATION_NAME].sort());
    } finally {
      await stop();
    }
  });

  it("keeps the operator's own application_name from the database URL", async () => {
    const url = new URL(database.url!);
    url.searchParams.set('application_name', 'ops-named');
    const named = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 });
    try {
      const rows = (await named.db.execute(
        sql`select current_setting('application_name') as name`,
      )) as unknown as {
        rows: { name: string }[];
      };
      expect(rows.rows[0]!.name).toBe('ops-named');
    } finally {
      await named.close();
    }
  });
});

describe('PGlite data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-db-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('persists across reopen and refuses a second live owner', async () => {
    const first = await openDatabase({ kind: 'pglite', dataDir: dir });
    await first.db.insert(users).values({ githubId: 7, username: 'bob' });
    await first.close();

    const reopened = await openDatabase({ kind: 'pglite', dataDir: dir });
    expect(await reopened.db.select().from(users)).toHaveLength(1);
    await reopened.close();
  });

  it('fails clearly when another live process holds the directory', async () => {
    // pid 1 is always alive and never us: it stands in for another Tandem process.
    writeFileSync(join(dir, 'tandem.lock'), '1');
    await expect(openDatabase({ kind: 'pglite', dataDir: dir })).rejects.toBeInstanceOf(DataDirLockedError);
    rmSync(join(dir, 'tandem.lock'));
  });
});

describe('PGlite memory settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-db-init-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // The compiled script is what `npm start` runs (tsc -b precedes the tests); its exit code.
  const script = fileURLToPath(new URL('../dist/init-pglite.js', import.meta.url));
  const runInitScript = (dataDir: string) =>
    new Promise<number>((resolve) =>
      execFile(process.execPath, [script, dataDir], (error) => resolve(error ? (error.code as number) : 0)),
    );

  it('runs with small shared buffers (its memory never shrinks)', async () => {
    const database = await openDatabase({ kind: 'pglite' });
    const result = await database.db.execute(sql`show shared_buffers`);
    expect(JSON.stringify(result)).toContain('16MB');
    await database.close();
  });

  it('creates a fresh data directory in a child process from the compiled script', async () => {
    const fresh = join(dir, 'fresh');
    expect(isFreshDataDir(fresh)).toBe(true);
    expect(await runInitScript(fresh)).toBe(0);
    expect(isFreshDataDir(fresh)).toBe(false);
    // Opened afterwards, the directory is already migrated and usable.
    const database = await openDatabase({ kind: 'pglite', dataDir: fresh });
    await database.db.insert(users).values({ githubId: 9, username: 'cy' });
    expect(await database.db.select().from(users)).toHaveLength(1);
    await database.close();
  });

  it('reports a child that could not create the directory', async () => {
    const notADir = join(dir, 'file');
    writeFileSync(notADir, 'x');
    expect(await runInitScript(notADir)).toBe(1);
  });
});
