import { eq } from 'drizzle-orm';
import { repositories, repositorySecrets } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { addSecretResponseSchema, SECRET_MESSAGES, SESSION_COOKIE, secretListSchema } from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { readSealedSecrets } from '@tandem/agent';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

describe.each(testDatabaseKinds())('secrets API on %s', (kind) => {
  const testApp = useTestApp(kind);
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let eve: TestUser;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
  const base = (repo = 'acme/webapp') => `/api/secrets/${repo}`;

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({
      username: 'ada',
      installations: [{ id: 21, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
    bob = await app.signIn({ username: 'bob', installations: [{ id: 21, name: 'acme', role: 'member' }] });
    eve = await app.signIn({
      username: 'eve',
      installations: [{ id: 22, name: 'eve', role: 'admin', repos: ['eve/site'] }],
    });
  });

  /** The secrets as an agent's sandbox gets them (the runtime reads them sealed; the server opens them). */
  const runtimeSecrets = async (repo: string) =>
    Object.fromEntries(
      (await readSealedSecrets(app.database.db, await repoId(repo))).map((s) => [
        s.key,
        app.secretBox.open(s.sealed),
      ]),
    );
  const add = (user: TestUser, payload: Record<string, unknown>, repo?: string) =>
    app.server.inject({ method: 'POST', url: `${base(repo)}/add-secret`, headers: as(user), payload });
  const remove = (user: TestUser, key: string, repo?: string) =>
    app.server.inject({
      method: 'POST',
      url: `${base(repo)}/delete-secret`,
      headers: as(user),
      payload: { key },
    });
  const list = async (user: TestUser, repo?: string) => {
    const res = await app.server.inject({ url: `${base(repo)}/get-secrets`, headers: as(user) });
    expect(res.statusCode).toBe(200);
    return secretListSchema.parse(res.json()).secrets;
  };
  const repoId = async (fullName: string) => {
    const [row] = await app.database.db
      .select({ id: repositories.id })
      .from(repositories)
      .where(eq(repositories.fullName, fullName));
    return row!.id;
  };

  it('lists added secrets by name and date, never their values, and stores them sealed', async () => {
    const value = 'sk-live-1234567890';
    const res = await add(ada, { key: 'API_TOKEN', value });
    expect(res.statusCode).toBe(200);
    const created = addSecretResponseSchema.parse(res.json());
    expect(created.key).toBe('API_TOKEN');
    expect(new Date(created.created_at).toString()).not.toBe('Invalid Date');

    // Any installation member may read them, not just the one who added them.
    const listed = await list(bob);
    expect(listed).toEqual([{ key: 'API_TOKEN', created_at: created.created_at }]);
    const raw = await app.server.inject({ url: `${base()}/get-secrets`, headers: as(ada) });
    expect(raw.body).not.toContain(value);

    const [row] = await app.database.db
      .select()
      .from(repositorySecrets)
      .where(eq(repositorySecrets.key, 'API_TOKEN'));
    expect(row!.sealedValue).not.toContain(value);
    expect(row!.sealedValue).toMatch(/^v1:/);

    const secrets = await runtimeSecrets('acme/webapp');
    expect(secrets).toEqual({ API_TOKEN: value });
  });

  it('upper-cases names before validating them', async () => {
    const res = await add(bob, { key: 'database_url', value: 'postgres://x' });
    expect(res.statusCode).toBe(200);
    expect(res.json().key).toBe('DATABASE_URL');
    expect((await list(ada)).map((s) => s.key)).toContain('DATABASE_URL');
    // The same name in another case is a duplicate.
    const again = await add(ada, { key: 'Database_Url', value: 'other' });
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toBe(SECRET_MESSAGES.duplicate);
  });

  it('refuses invalid names, empty or over-long values and duplicates with 400', async () => {
    for (const key of ['1ABC', 'A-B', '', 'A B', 'É', 'X'.repeat(10_000)]) {
      const res = await add(ada, { key, value: 'v' });
      expect(res.statusCode, key.slice(0, 20)).toBe(400);
      expect(res.json().detail).toBe('Invalid Environment Variable Name');
    }
    expect((await add(ada, { key: 'X'.repeat(9_999), value: 'v' })).statusCode).toBe(200);
    expect((await add(ada, { key: '_PRIVATE', value: 'v' })).statusCode).toBe(200);

    for (const value of ['', '   ']) {
      const res = await add(ada, { key: 'EMPTY', value });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe('Secret value cannot be empty');
    }
    const long = await add(ada, { key: 'LONG', value: 'v'.repeat(10_100) });
    expect(long.statusCode).toBe(400);
    expect(long.json().detail).toBe('Secret value must be under 10100 characters');
    expect((await add(ada, { key: 'LONG', value: 'v'.repeat(10_099) })).statusCode).toBe(200);

    await add(ada, { key: 'TWICE', value: 'one' });
    const duplicate = await add(ada, { key: 'TWICE', value: 'two' });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().detail).toBe('A secret with that name already exists');

    // Wrong types are request-shape errors (422), like every other route.
    expect((await add(ada, { key: 'NUM', value: 5 })).statusCode).toBe(422);
    expect((await add(ada, { value: 'v' })).statusCode).toBe(422);
  });

  it('deletes secrets and answers 404 for an unknown name', async () => {
    await add(ada, { key: 'GONE_SOON', value: 'bye' });
    const res = await remove(bob, 'gone_soon');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await list(ada)).map((s) => s.key)).not.toContain('GONE_SOON');
    const secrets = await runtimeSecrets('acme/webapp');
    expect(secrets).not.toHaveProperty('GONE_SOON');

    const unknown = await remove(ada, 'GONE_SOON');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toBe('Secret not found');
  });

  it('answers 404 to users without access to the repository, and changes nothing', async () => {
    await add(ada, { key: 'HIDDEN', value: 'secret' });
    const peek = await app.server.inject({ url: `${base()}/get-secrets`, headers: as(eve) });
    expect(peek.statusCode).toBe(404);
    expect(peek.body).not.toContain('HIDDEN');
    expect((await add(eve, { key: 'INJECTED', value: 'x' })).statusCode).toBe(404);
    expect((await remove(eve, 'HIDDEN')).statusCode).toBe(404);
    expect((await list(ada)).map((s) => s.key)).toEqual(expect.arrayContaining(['HIDDEN']));
    expect((await list(ada)).map((s) => s.key)).not.toContain('INJECTED');

    // Unknown repositories look the same; eve's own repository starts empty.
    expect((await add(ada, { key: 'A', value: 'x' }, 'acme/unknown')).statusCode).toBe(404);
    expect(await list(eve, 'eve/site')).toEqual([]);
    expect((await app.server.inject({ url: `${base()}/get-secrets` })).statusCode).toBe(401);
  });

  it('needs CSRF proof for cookie-authenticated changes', async () => {
    const cookies = { [SESSION_COOKIE]: ada.token };
    const url = `${base()}/add-secret`;
    const payload = { key: 'FROM_COOKIE', value: 'x' };
    expect((await app.server.inject({ method: 'POST', url, cookies, payload })).statusCode).toBe(403);
    const proven = await app.server.inject({
      method: 'POST',
      url,
      cookies,
      payload,
      headers: { 'x-tandem-csrf': '1' },
    });
    expect(proven.statusCode).toBe(200);
  });
});
