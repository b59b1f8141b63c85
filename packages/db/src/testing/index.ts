import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database, type Db, type QueryLogger } from '../client.js';
import { installations, repositories, users } from '../schema/index.js';

export interface TestDatabase extends Database {
  /** Drops the throwaway database (Postgres) or discards the in-memory one (PGlite). */
  destroy(): Promise<void>;
  /** The throwaway database's URL (Postgres only), for components that open their own pool. */
  url?: string;
}

export type TestDatabaseKind = 'pglite' | 'postgres';

/** PGlite always; Postgres too when TEST_DATABASE_URL is set (CI points it at the machine's server). */
export function testDatabaseKinds(): TestDatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/** A fresh, migrated database of the given kind that no other test sees. */
export async function createTestDatabase(
  kind: TestDatabaseKind = 'pglite',
  options: { logQuery?: QueryLogger } = {},
): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const database = await openDatabase({ kind: 'pglite', ...options });
    return { ...database, destroy: () => database.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `tandem_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdminClient(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4, ...options });
  return {
    ...database,
    url: url.toString(),
    destroy: async () => {
      await database.close();
      await withAdminClient(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      );
    },
  };
}

/** The rows many tests start from: installation 7 (acme), the user ada and the repository acme/webapp. */
export async function seedAcmeRepository(
  db: Db,
): Promise<{ installationId: number; userId: string; repositoryId: string }> {
  await db.insert(installations).values({ id: 7, accountLogin: 'acme', accountType: 'Organization' });
  const [user] = await db.insert(users).values({ githubId: 1, username: 'ada' }).returning({ id: users.id });
  const [repo] = await db
    .insert(repositories)
    .values({ githubId: 2, installationId: 7, fullName: 'acme/webapp' })
    .returning({ id: repositories.id });
  return { installationId: 7, userId: user!.id, repositoryId: repo!.id };
}

async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
