import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client.js';
import { PGLITE_START_PARAMS } from './pglite-settings.js';
import { DRIZZLE_TEXT_TYPES, PgliteThread } from './pglite-thread.js';
import { agents, installations, repositories, users } from './schema/index.js';

const run = promisify(execFile);
const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-pglite-thread-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

it("keeps as text exactly the types drizzle's PGlite driver asks for", async () => {
  let asked: Record<number, unknown> | undefined;
  const client = {
    query: async (_sql: string, _params: unknown[], options: { parsers?: Record<number, unknown> }) => {
      asked = options.parsers;
      return { rows: [], fields: [] };
    },
  };
  await drizzle(client as never).execute(sql`select 1`);
  expect(Object.keys(asked ?? {}).map(Number)).toEqual(DRIZZLE_TEXT_TYPES);
});

describe('a data directory opens PGlite on a worker thread', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite', dataDir: tempDir() });
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  it('round-trips rows as the in-process driver does (dates, json, binary, numbers)', async () => {
    const { db } = database;
    const [ada] = await db.insert(users).values({ githubId: 1, username: 'ada' }).returning();
    expect(ada!.createdAt).toBeInstanceOf(Date);
    const raw = (await db.execute(
      sql`select now() as at, 2::int8 as big, '\\x0102'::bytea as bytes, '{"a":[1]}'::jsonb as doc`,
    )) as unknown as { rows: { at: unknown; big: unknown; bytes: Uint8Array; doc: unknown }[] };
    const row = raw.rows[0]!;
    // drizzle keeps timestamps as Postgres' text and parses them itself.
    expect(typeof row.at).toBe('string');
    expect(row.big).toBe(2);
    expect([...row.bytes]).toEqual([1, 2]);
    expect(row.doc).toEqual({ a: [1] });
  });

  it('commits a transaction, rolls one back, and keeps savepoints', async () => {
    const { db } = database;
    await db.insert(installations).values({ id: 7, accountLogin: 'acme', accountType: 'Organization' });
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(installations).values({ id: 8, accountLogin: 'gone', accountType: 'User' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await db.transaction(async (tx) => {
      await tx.insert(installations).values({ id: 9, accountLogin: 'kept', accountType: 'User' });
      await tx
        .transaction(async (inner) => {
          await inner.insert(installations).values({ id: 10, accountLogin: 'inner', accountType: 'User' });
          throw new Error('inner only');
        })
        .catch(() => undefined);
    });
    const ids = (await db.select({ id: installations.id }).from(installations)).map((r) => r.id).sort();
    expect(ids).toEqual([7, 9]);
  });

  it("holds other queries until a transaction ends, as PGlite's one connection does", async () => {
    const { db } = database;
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tx = db.transaction(async (t) => {
      await t.update(installations).set({ accountLogin: 'renamed' }).where(eq(installations.id, 7));
      order.push('updated');
      await held;
      order.push('committing');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const outside = db
      .select({ login: installations.accountLogin })
      .from(installations)
      .where(eq(installations.id, 7))
      .then((rows) => {
        order.push('read');
        return rows[0]?.login;
      });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(order).toEqual(['updated']);
    release();
    await tx;
    expect(await outside).toBe('renamed');
    expect(order).toEqual(['updated', 'committing', 'read']);
  });

  it("reports Postgres' error fields", async () => {
    const { db } = database;
    const error = (await db
      .insert(users)
      .values({ githubId: 1, username: 'twin' })
      .then(
        () => ({}),
        (e: unknown) => e,
      )) as { cause?: { code?: string; constraint?: string } };
    expect(error).toMatchObject({ cause: { code: '23505' } });
    expect(error.cause?.constraint).toMatch(/github_id/);
  });

  it('delivers a notification before the query that sent it resolves', async () => {
    const heard: string[] = [];
    const stop = await database.listen(
      'thread_test',
      (payload) => heard.push(payload),
      () => undefined,
    );
    await database.db.execute(sql`select pg_notify('thread_test', 'first')`);
    expect(heard).toEqual(['first']);
    await stop();
    await database.db.execute(sql`select pg_notify('thread_test', 'second')`);
    expect(heard).toEqual(['first']);
  });

  it('runs the schema the server uses (joins, returning, counts)', async () => {
    const { db } = database;
    const [repo] = await db
      .insert(repositories)
      .values({ githubId: 5, installationId: 7, fullName: 'acme/webapp', defaultBranch: 'main' })
      .returning();
    const [ada] = await db.select().from(users).where(eq(users.username, 'ada'));
    await db.insert(agents).values({
      number: 1,
      title: 'One',
      status: 'idle',
      repositoryId: repo!.id,
      installationId: 7,
      creatorId: ada!.id,
      model: 'local/bench',
      summarizationLimit: 100_000,
    });
    const [counted] = await db.select({ n: sql<number>`count(*)::int` }).from(agents);
    expect(counted!.n).toBe(1);
  });
});

describe('PgliteThread', () => {
  let thread: PgliteThread;
  beforeAll(async () => {
    thread = await PgliteThread.start(tempDir(), PGLITE_START_PARAMS);
  }, 60_000);
  afterAll(async () => {
    await thread?.close();
  });

  it('parses the default text types as PGlite does when a query asks for other parsers', async () => {
    type Row = { at: unknown; day: unknown };
    const query = `select '2026-11-26 10:00:00+00'::timestamptz as at, '2026-11-26'::date as day`;
    const keep = (value: string) => value;
    const own = await thread.query<{ rows: Row[] }>(query, [], { parsers: { 1184: keep } });
    expect(own.rows[0]!.at).toBe('2026-11-26 10:00:00+00');
    expect(own.rows[0]!.day).toBeInstanceOf(Date);
    const none = await thread.query<{ rows: Row[] }>(query);
    expect(none.rows[0]!.at).toBeInstanceOf(Date);
  });

  it('refuses a parser it cannot run on the other thread', async () => {
    expect(() => thread.query('select 1', [], { parsers: { 23: (value: string) => Number(value) } })).toThrow(
      /cannot run a custom parser \(type 23\)/,
    );
  });

  it('answers a parameter it cannot send with that query’s error, and goes on', async () => {
    await expect(thread.query('select $1::text as v', [() => 'x'])).rejects.toThrow(/could not be cloned/);
    const { rows } = await thread.query<{ rows: { v: string }[] }>('select $1::text as v', ['ok']);
    expect(rows[0]!.v).toBe('ok');
  });

  it('answers an error for a query in a transaction that has ended', async () => {
    let escaped: { query: PgliteThread['query'] } | undefined;
    await thread.transaction(async (tx) => {
      escaped = tx as { query: PgliteThread['query'] };
    });
    await expect(escaped!.query('select 1')).rejects.toThrow('The transaction has already ended.');
  });

  it('fails to start with PGlite’s error and leaves no thread behind', async () => {
    const file = join(tempDir(), 'not-a-directory');
    writeFileSync(file, 'x');
    await expect(PgliteThread.start(file, PGLITE_START_PARAMS)).rejects.toThrow();
  });

  it('rejects queries once closed', async () => {
    const other = await PgliteThread.start(tempDir(), PGLITE_START_PARAMS);
    await other.close();
    await expect(other.query('select 1')).rejects.toThrow('The embedded database has stopped (closed).');
  }, 60_000);

  // A text sent again runs as a named prepared statement (pglite-thread-worker.ts).
  type Rows<T> = { rows: T[] };
  const preparedAs = async (text: string) =>
    (
      await thread.query<Rows<{ n: number }>>(
        'select count(*)::int as n from pg_prepared_statements where statement = $1',
        [text],
      )
    ).rows[0]!.n;
  const rowsOf = async <T>(text: string, params: unknown[] = []) =>
    (await thread.query<Rows<T>>(text, params)).rows;

  it('prepares a text the second time it is sent, and runs it from then on', async () => {
    const text = 'select $1::int + 1 as v';
    expect(await rowsOf(text, [1])).toEqual([{ v: 2 }]);
    expect(await preparedAs(text)).toBe(0);
    expect(await rowsOf(text, [2])).toEqual([{ v: 3 }]);
    expect(await preparedAs(text)).toBe(1);
    expect(await rowsOf(text, [41])).toEqual([{ v: 42 }]);
    expect(await preparedAs(text)).toBe(1);
  });

  it('sends parameters by their described types (json, arrays, timestamps, bytes, null)', async () => {
    const text =
      'select $1::jsonb as doc, $2::int[] as list, $3::timestamptz as at, $4::bytea as bytes, $5::text as nothing';
    const at = new Date('2026-11-27T05:00:00.000Z');
    for (let i = 0; i < 3; i++) {
      const [row] = await rowsOf<{
        doc: unknown;
        list: unknown;
        at: Date;
        bytes: Uint8Array;
        nothing: unknown;
      }>(text, [{ a: [i] }, [i, 2], at, new Uint8Array([i, 2]), null]);
      expect(row).toMatchObject({ doc: { a: [i] }, list: [i, 2], nothing: null });
      expect(row!.at.toISOString()).toBe(at.toISOString());
      expect([...row!.bytes]).toEqual([i, 2]);
    }
  });

  it('answers the same after a schema change and after DEALLOCATE ALL', async () => {
    await thread.query('create table shifting (a int)');
    await thread.query('insert into shifting values (1)');
    const text = 'select * from shifting';
    expect(await rowsOf(text)).toEqual([{ a: 1 }]);
    expect(await rowsOf(text)).toEqual([{ a: 1 }]);
    expect(await preparedAs(text)).toBe(1);
    // The prepared plan's columns no longer fit: Postgres refuses it, and it is prepared afresh.
    await thread.query("alter table shifting add column b text default 'x'");
    expect(await rowsOf(text)).toEqual([{ a: 1, b: 'x' }]);
    await thread.query('deallocate all');
    expect(await rowsOf(text)).toEqual([{ a: 1, b: 'x' }]);
    expect(await rowsOf(text)).toEqual([{ a: 1, b: 'x' }]);
    expect(await preparedAs(text)).toBe(1);
  });

  it('reports a stale statement in a transaction, which it cannot repeat, and recovers after', async () => {
    await thread.query('create table shifting_in_tx (a int)');
    const text = 'select * from shifting_in_tx';
    await rowsOf(text);
    await rowsOf(text);
    await expect(
      thread.transaction(async (tx) => {
        await tx.query('alter table shifting_in_tx add column b int');
        await tx.query(text);
      }),
    ).rejects.toThrow(/cached plan must not change result type/);
    expect((await thread.query<{ fields: unknown[] }>(text)).fields).toHaveLength(1);
  });

  it('keeps a statement prepared in a transaction that rolled back', async () => {
    const text = 'select $1::text as v';
    await expect(
      thread.transaction(async (tx) => {
        await tx.query(text, ['a']);
        await tx.query(text, ['b']);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await rowsOf(text, ['c'])).toEqual([{ v: 'c' }]);
  });

  it('answers a syntax error each time it is sent, with its text, and goes on', async () => {
    for (let i = 0; i < 2; i++) {
      await expect(thread.query('selec 1')).rejects.toMatchObject({ code: '42601', query: 'selec 1' });
    }
    expect(await rowsOf('select 1 as v')).toEqual([{ v: 1 }]);
  });

  it('closes the least recently used statements beyond its limit', async () => {
    for (let i = 0; i < 300; i++) {
      await thread.query(`select ${i} as v`);
      await thread.query(`select ${i} as v`);
    }
    const [prepared] = await rowsOf<{ n: number }>(
      "select count(*)::int as n from pg_prepared_statements where name like 'tandem\\_%'",
    );
    expect(prepared!.n).toBeGreaterThan(200);
    expect(prepared!.n).toBeLessThanOrEqual(256);
    expect(await preparedAs('select 299 as v')).toBe(1);
    expect(await preparedAs('select 0 as v')).toBe(0);
  });
});

it('does not keep a process alive once its queries are done', async () => {
  const module = fileURLToPath(new URL('./pglite-thread.ts', import.meta.url));
  const script = join(tempDir(), 'open-and-leave.mjs');
  writeFileSync(
    script,
    `import { PgliteThread } from ${JSON.stringify(module)};
     const thread = await PgliteThread.start(${JSON.stringify(tempDir())}, ${JSON.stringify(PGLITE_START_PARAMS)});
     const { rows } = await thread.query('select 41 + 1 as n');
     console.log(rows[0].n);`,
  );
  // Node runs the TypeScript module itself (type stripping); the script never closes the thread.
  const { stdout } = await run(process.execPath, [script], { timeout: 60_000 });
  expect(stdout.trim()).toBe('42');
}, 70_000);
