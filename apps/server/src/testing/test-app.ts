import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { installations, memberships, repositories, users } from '@tandem/db';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '@tandem/db/testing';
import { buildApp, type App } from '../app.js';

export const TEST_INDEX_HTML =
  '<!doctype html><html><head><title>Tandem</title></head><body>spa</body></html>';

export interface TestUser {
  id: string;
  username: string;
  token: string;
}

export interface TestApp extends App {
  database: TestDatabase;
  /** Creates a user (and optionally installations they belong to) and returns a live session token. */
  signIn(spec: {
    username: string;
    admin?: boolean;
    installations?: { id: number; name: string; role: 'admin' | 'member'; repos?: string[] }[];
  }): Promise<TestUser>;
  close(): Promise<void>;
}

let nextGithubId = 1000;

/** The real app on a throwaway database, with a stand-in built web app; not listening (use inject). */
export async function createTestApp(kind: TestDatabaseKind = 'pglite'): Promise<TestApp> {
  const database = await createTestDatabase(kind);
  const webDist = mkdtempSync(join(tmpdir(), 'tandem-web-'));
  writeFileSync(join(webDist, 'index.html'), TEST_INDEX_HTML);
  const app = await buildApp({
    config: { publicUrl: undefined, sessionDays: 30, webDist },
    database,
    secretKey: 'test-secret-key-test-secret-key-test',
    logger: pino({ level: 'silent' }),
  });

  return {
    ...app,
    database,
    async signIn(spec) {
      const { db } = database;
      const [user] = await db
        .insert(users)
        .values({ githubId: nextGithubId++, username: spec.username, admin: spec.admin ?? false })
        .returning();
      for (const inst of spec.installations ?? []) {
        await db
          .insert(installations)
          .values({ id: inst.id, accountLogin: inst.name, accountType: 'Organization' })
          .onConflictDoNothing();
        await db.insert(memberships).values({ userId: user!.id, installationId: inst.id, role: inst.role });
        for (const fullName of inst.repos ?? []) {
          await db
            .insert(repositories)
            .values({ githubId: nextGithubId++, installationId: inst.id, fullName })
            .onConflictDoNothing();
        }
      }
      const { token } = await app.sessions.create(user!.id);
      return { id: user!.id, username: user!.username, token };
    },
    async close() {
      await app.server.close();
      await database.destroy();
      rmSync(webDist, { recursive: true, force: true });
    },
  };
}
