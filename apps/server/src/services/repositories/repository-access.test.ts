import { installations, repositories, users } from '@tandem/db';
import { createTestDatabase, type TestDatabase } from '@tandem/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepositoryPermission } from '../../github/gateway.js';
import type { AuthenticatedUser } from '../sessions.js';
import { RepositoryAccess, type PermissionSource } from './repository-access.js';

/** The cache in front of the code host: the code host itself is covered by routes/repositories.test.ts. */
describe('RepositoryAccess', () => {
  let database: TestDatabase;
  let viewer: AuthenticatedUser;
  let answer: RepositoryPermission | Error = 'write';
  const asked: string[] = [];
  const source: PermissionSource = {
    async repositoryPermission(installationId, repository, username) {
      asked.push(`${installationId} ${repository.owner}/${repository.name} ${username}`);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    const { db } = database;
    const [user] = await db.insert(users).values({ githubId: 1, username: 'bob' }).returning();
    viewer = { id: user!.id, username: 'bob', admin: false, sessionId: 's' };
    await db.insert(installations).values({ id: 7, accountLogin: 'acme', accountType: 'Organization' });
    await db.insert(repositories).values({ githubId: 70, installationId: 7, fullName: 'acme/webapp' });
  });
  afterAll(async () => {
    await database.destroy();
  });

  it('asks the code host once per minute per user and repository', async () => {
    let now = 0;
    const access = new RepositoryAccess(database.db, source, { now: () => now });
    asked.length = 0;
    expect((await access.require(viewer, 'ACME/webapp')).level).toBe('write');
    answer = 'read';
    expect((await access.require(viewer, 'acme/webapp')).level).toBe('write');
    expect(asked).toEqual(['7 acme/webapp bob']);
    now += 60_001;
    expect((await access.require(viewer, 'acme/webapp')).level).toBe('read');
    expect(asked).toHaveLength(2);
    await expect(access.require(viewer, 'acme/webapp', 'write', 'Need write')).rejects.toMatchObject({
      status: 403,
      message: 'Need write',
    });
  });

  it('answers 404 for no access or an unknown repository, and does not remember failures', async () => {
    const access = new RepositoryAccess(database.db, source);
    answer = 'none';
    await expect(access.require(viewer, 'acme/webapp')).rejects.toMatchObject({ status: 404 });
    await expect(access.require(viewer, 'acme/other')).rejects.toMatchObject({ status: 404 });

    const fresh = new RepositoryAccess(database.db, source);
    answer = new Error('connection refused');
    await expect(fresh.require(viewer, 'acme/webapp')).rejects.toMatchObject({ status: 502 });
    answer = 'admin';
    expect((await fresh.require(viewer, 'acme/webapp')).level).toBe('admin');
  });

  it('keeps at most maxEntries answers', async () => {
    const access = new RepositoryAccess(database.db, source, { maxEntries: 1 });
    const other: AuthenticatedUser = { ...viewer, id: '00000000-0000-4000-8000-000000000000' };
    asked.length = 0;
    await access.require(viewer, 'acme/webapp');
    await access.require(other, 'acme/webapp');
    await access.require(viewer, 'acme/webapp');
    expect(asked).toHaveLength(3);
  });
});
