import { and, eq } from 'drizzle-orm';
import { membershipOverrides, memberships, users, userSettings } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { SETTINGS_MESSAGES, userSchema, userSettingsSchema, usersTableSchema } from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { syncUserFromCodeHost } from '../services/code-host-sync.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

// acme is installation 1000 on the local code host, so users can be looked up there.
const ACME = 1000;

describe.each(testDatabaseKinds())('settings API on %s', (kind) => {
  const testApp = useTestApp(kind, { codeHost: true });
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let outsider: TestUser;
  const as = (user: TestUser, installation = ACME) => ({
    authorization: `Bearer ${user.token}`,
    'x-installation-id': String(installation),
  });

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({
      username: 'ada',
      installations: [{ id: ACME, name: 'acme', role: 'admin', repos: ['acme/webapp', 'acme/api'] }],
    });
    bob = await app.signIn({ username: 'bob', installations: [{ id: ACME, name: 'acme', role: 'member' }] });
    carol = await app.signIn({
      username: 'carol',
      installations: [{ id: ACME, name: 'acme', role: 'member' }],
    });
    outsider = await app.signIn({
      username: 'mallory',
      installations: [{ id: 77, name: 'mallory', role: 'admin' }],
    });
  });

  const table = (user: TestUser, installation?: number) =>
    app.server.inject({ url: '/api/settings/users-table', headers: as(user, installation) });
  const patchUser = (user: TestUser, payload: unknown, installation?: number) =>
    app.server.inject({
      method: 'PATCH',
      url: '/api/settings/users-table',
      headers: as(user, installation),
      payload: payload as Record<string, unknown>,
    });
  const rows = async () => {
    const res = await table(ada);
    expect(res.statusCode).toBe(200);
    return usersTableSchema.parse(res.json()).users.map((u) => [u.username, u.role]);
  };
  const overrides = () => app.database.db.select().from(membershipOverrides);

  describe('user settings', () => {
    it('starts with notifications off and automatic PRs on', async () => {
      const res = await app.server.inject({ url: '/api/settings/user', headers: as(bob) });
      expect(res.statusCode).toBe(200);
      expect(userSettingsSchema.parse(res.json())).toEqual({
        notifications_enabled: false,
        auto_create_pr: true,
      });
    });

    it('changes one toggle at a time and keeps the other', async () => {
      const patch = (payload: Record<string, unknown>) =>
        app.server.inject({ method: 'PATCH', url: '/api/settings/user', headers: as(carol), payload });
      expect((await patch({ notifications_enabled: true })).json()).toEqual({
        notifications_enabled: true,
        auto_create_pr: true,
      });
      expect((await patch({ auto_create_pr: false })).json()).toEqual({
        notifications_enabled: true,
        auto_create_pr: false,
      });
      const read = await app.server.inject({ url: '/api/settings/user', headers: as(carol) });
      expect(read.json()).toEqual({ notifications_enabled: true, auto_create_pr: false });
      // Other users are untouched.
      const other = await app.server.inject({ url: '/api/settings/user', headers: as(bob) });
      expect(other.json()).toEqual({ notifications_enabled: false, auto_create_pr: true });
    });

    it.each([
      [{}],
      [{ notifications_enabled: 'yes' }],
      [{ auto_create_pr: null }],
      [{ notifications_enabled: true, admin: true }],
      [[]],
    ])('answers 422 for %j and stores nothing', async (payload) => {
      const res = await app.server.inject({
        method: 'PATCH',
        url: '/api/settings/user',
        headers: as(bob),
        payload: payload as Record<string, unknown>,
      });
      expect(res.statusCode).toBe(422);
      expect(Array.isArray(res.json().detail)).toBe(true);
      const read = await app.server.inject({ url: '/api/settings/user', headers: as(bob) });
      expect(read.json()).toEqual({ notifications_enabled: false, auto_create_pr: true });
    });

    it('needs a signed-in user', async () => {
      expect((await app.server.inject({ url: '/api/settings/user' })).statusCode).toBe(401);
      const patch = await app.server.inject({
        method: 'PATCH',
        url: '/api/settings/user',
        payload: { notifications_enabled: true },
      });
      expect(patch.statusCode).toBe(401);
    });
  });

  describe('users table', () => {
    it('shows an installation admin the users, repositories and the code-host link', async () => {
      const res = await table(ada);
      expect(res.statusCode).toBe(200);
      const body = usersTableSchema.parse(res.json());
      expect(body.users.map((u) => [u.username, u.role])).toEqual([
        ['ada', 'admin'],
        ['bob', 'member'],
        ['carol', 'member'],
      ]);
      expect(body.repositories).toEqual(['acme/api', 'acme/webapp']);
      expect(body.installation).toMatchObject({ id: ACME, name: 'acme' });
      expect(body.installation.manage_repositories_url).toBe(
        `${app.codeHost!.url}/organizations/acme/settings/installations/${ACME}`,
      );
      // The local code host answers GitHub's organisation address too.
      const page = await fetch(body.installation.manage_repositories_url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('acme/webapp');
    });

    it('uses the active installation when no header names one', async () => {
      const res = await app.server.inject({
        url: '/api/settings/users-table',
        headers: { authorization: `Bearer ${ada.token}` },
      });
      expect(res.statusCode).toBe(200);
      expect(usersTableSchema.parse(res.json()).installation.id).toBe(ACME);
    });

    it('refuses members with 403 and outsiders with 404, reading or writing', async () => {
      const read = await table(bob);
      expect(read.statusCode).toBe(403);
      expect(read.json().detail).toBe(SETTINGS_MESSAGES.notAdmin);
      const write = await patchUser(bob, { username: 'carol', role: 'admin' });
      expect(write.statusCode).toBe(403);
      expect(write.json().detail).toBe(SETTINGS_MESSAGES.notAdmin);
      expect((await table(outsider)).statusCode).toBe(404);
      expect((await patchUser(outsider, { username: 'bob', role: null })).statusCode).toBe(404);
      expect((await app.server.inject({ url: '/api/settings/users-table' })).statusCode).toBe(401);
      expect(await rows()).toEqual([
        ['ada', 'admin'],
        ['bob', 'member'],
        ['carol', 'member'],
      ]);
    });

    it.each([
      [{ username: 'bob' }],
      [{ username: 'bob', role: 'owner' }],
      [{ username: '', role: 'member' }],
      [{ username: 'bad name!', role: 'member' }],
      [{ username: 'x'.repeat(40), role: 'member' }],
      [{ username: 'bob', role: 'admin', installation_id: 77 }],
      [{ role: 'member' }],
    ])('answers 422 for %j and changes nothing', async (payload) => {
      const res = await patchUser(ada, payload);
      expect(res.statusCode).toBe(422);
      expect(await rows()).toEqual([
        ['ada', 'admin'],
        ['bob', 'member'],
        ['carol', 'member'],
      ]);
    });

    it('ignores a stored active installation the user has left', async () => {
      await app.database.db
        .insert(userSettings)
        .values({ userId: ada.id, activeInstallationId: 77 })
        .onConflictDoUpdate({ target: userSettings.userId, set: { activeInstallationId: 77 } });
      const res = await app.server.inject({
        url: '/api/settings/users-table',
        headers: { authorization: `Bearer ${ada.token}` },
      });
      expect(res.statusCode).toBe(200);
      expect(usersTableSchema.parse(res.json()).installation.id).toBe(ACME);
    });

    it('answers 422 for a malformed X-Installation-ID', async () => {
      const res = await app.server.inject({
        url: '/api/settings/users-table',
        headers: { authorization: `Bearer ${ada.token}`, 'x-installation-id': 'acme' },
      });
      expect(res.statusCode).toBe(422);
    });

    it("locks the caller's own row: no role change, no removal", async () => {
      for (const role of ['member', null]) {
        const res = await patchUser(ada, { username: 'ADA', role });
        expect(res.statusCode).toBe(403);
        expect(res.json().detail).toBe(SETTINGS_MESSAGES.ownRow);
      }
      expect(await rows()).toContainEqual(['ada', 'admin']);
      expect(await overrides()).toEqual([]);
    });

    it('refuses a username the code host does not know, creating nobody', async () => {
      const before = await app.database.db.select({ id: users.id }).from(users);
      const res = await patchUser(ada, { username: 'nobody-at-all', role: 'member' });
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe(SETTINGS_MESSAGES.unknownUser);
      // An organisation is not a user either.
      const org = await patchUser(ada, { username: 'tandem-templates', role: 'member' });
      expect(org.statusCode).toBe(404);
      expect(await app.database.db.select({ id: users.id }).from(users)).toHaveLength(before.length);
      expect(await overrides()).toEqual([]);
    });

    it('changes a role, and removing someone who is not in the table is a 404', async () => {
      const res = await patchUser(ada, { username: 'carol', role: 'admin' });
      expect(res.statusCode).toBe(200);
      expect(usersTableSchema.parse(res.json()).users.find((u) => u.username === 'carol')?.role).toBe(
        'admin',
      );
      const missing = await patchUser(ada, { username: 'mallory', role: null });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().detail).toBe(SETTINGS_MESSAGES.notMember);
    });

    it('adds a code-host user who never signed in, as a member by default role', async () => {
      const res = await patchUser(ada, { username: 'Eve', role: 'member' });
      expect(res.statusCode).toBe(200);
      const eve = usersTableSchema.parse(res.json()).users.find((u) => u.username === 'eve');
      expect(eve).toMatchObject({ role: 'member', username: 'eve' });
      const [row] = await app.database.db.select().from(users).where(eq(users.username, 'eve'));
      // Matched by code-host id at her first sign-in.
      expect(row?.githubId).toBe(3);
      expect(row?.githubTokenEncrypted).toBeNull();
    });

    it('removes a user (role null): they lose the installation, and sign-in does not bring it back', async () => {
      const res = await patchUser(ada, { username: 'bob', role: null });
      expect(res.statusCode).toBe(200);
      expect(usersTableSchema.parse(res.json()).users.map((u) => u.username)).not.toContain('bob');
      const me = await app.server.inject({
        url: '/api/users/me',
        headers: { authorization: `Bearer ${bob.token}` },
      });
      expect(userSchema.parse(me.json()).installations).toEqual([]);
      expect(
        await app.database.db
          .select({ role: membershipOverrides.role })
          .from(membershipOverrides)
          .where(and(eq(membershipOverrides.userId, bob.id), eq(membershipOverrides.installationId, ACME))),
      ).toEqual([{ role: null }]);

      // Bob signs in again; the code host still says he is in acme. Eve signs in; it says she is not.
      const [bobRow] = await app.database.db.select().from(users).where(eq(users.id, bob.id));
      await syncUserFromCodeHost(app.database.db, {
        user: { id: bobRow!.githubId, login: 'bob', email: null, avatarUrl: null },
        sealedToken: 'sealed',
        admin: false,
        installations: [
          {
            installation: {
              id: ACME,
              account: { id: 100, login: 'acme', type: 'Organization', avatarUrl: null },
            },
            role: 'member',
            repositories: [],
          },
        ],
      });
      await syncUserFromCodeHost(app.database.db, {
        user: { id: 3, login: 'eve', email: null, avatarUrl: null },
        sealedToken: 'sealed',
        admin: false,
        installations: [],
      });
      const members = await app.database.db
        .select({ userId: memberships.userId, role: memberships.role })
        .from(memberships)
        .where(eq(memberships.installationId, ACME));
      expect(members.some((m) => m.userId === bob.id)).toBe(false);
      expect(await rows()).toContainEqual(['eve', 'member']);
      expect(await rows()).toContainEqual(['carol', 'admin']);

      // Adding bob back lifts the removal.
      expect((await patchUser(ada, { username: 'bob', role: 'member' })).statusCode).toBe(200);
      expect(await rows()).toContainEqual(['bob', 'member']);
    });

    it('shows utm_source only to product admins', async () => {
      const body = usersTableSchema.parse((await table(ada)).json());
      expect(body.users.every((u) => u.utm_source === null)).toBe(true);
    });
  });
});
