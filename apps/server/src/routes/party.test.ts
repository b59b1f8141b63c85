import { agentReads, agents, conversationItems, creditTransactions, installations } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { recordTransaction } from '@tandem/agent';
import {
  INSTALLATION_BANNED_MESSAGE,
  PARTY_DAILY_CAP_MESSAGE,
  PARTY_LEAD_MESSAGE,
  partyAgentSchema,
  partyTooLongMessage,
} from '@tandem/shared';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertAgent } from '../services/agents/insert-agent.js';
import { as, PARTY_TEST_SETTINGS as settings, partyVisitor } from '../testing/party.js';
import { useTestApp, type RecordingRunner, type TestApp, type TestUser } from '../testing/test-app.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The public party agent (platform §2, §6, §7; issue 21); without it and in sunset mode: party-off.test.ts. */
describe.each(testDatabaseKinds())('party agent on %s', (kind) => {
  describe('on acme/party', () => {
    const testApp = useTestApp(kind, { party: settings });
    let app: TestApp;
    let root: TestUser;
    let carol: TestUser;
    let mia: TestUser;
    let privateAgent: string;

    beforeAll(async () => {
      app = testApp();
      root = await app.signIn({ username: 'root', admin: true });
      carol = await app.signIn({
        username: 'carol',
        installations: [{ id: 61, name: 'acme', role: 'admin', repos: ['acme/party', 'acme/secret'] }],
      });
      mia = await app.signIn({
        username: 'mia',
        installations: [{ id: 62, name: 'mia', role: 'admin', repos: ['mia/own'] }],
      });
      const [secret] = await app.database.db.query.repositories.findMany({
        where: (r, { eq }) => eq(r.fullName, 'acme/secret'),
      });
      ({ agentId: privateAgent } = await insertAgent(app.database.db, {
        repositoryId: secret!.id,
        installationId: 61,
        creatorId: carol.id,
        model: { key: 'demo', defaultLimit: 1000 },
        reviewModel: null,
        firstMessage: { actionType: 'website_request', data: { message: 'private work' } },
      }));
    });

    const current = async () => {
      const res = await app.server.inject({ url: '/api/party/' });
      expect(res.statusCode, res.body).toBe(200);
      return partyAgentSchema.parse(res.json());
    };

    it('starts the party agent on first use, owned by the installation admin, and keeps it', async () => {
      const party = await current();
      expect(party).toMatchObject({
        repo_name: 'acme/party',
        max_message_chars: 200,
        messages_per_minute: 2,
      });
      const [row] = await app.database.db.select().from(agents).where(eq(agents.id, party.agent_id));
      expect(row).toMatchObject({
        purpose: 'party',
        installationId: 61,
        creatorId: carol.id,
        archived: false,
      });
      expect((app.runner as RecordingRunner).enqueued).toContain(party.agent_id);
      expect((await current()).agent_id).toBe(party.agent_id);
      // The bare path answers the same.
      expect((await app.server.inject({ url: '/api/party' })).json().agent_id).toBe(party.agent_id);
    });

    it('lets only product admins start a fresh one: 401 without a session, 403 for others', async () => {
      const before = await current();
      expect((await app.server.inject({ method: 'POST', url: '/api/party/new' })).statusCode).toBe(401);
      for (const user of [carol, mia]) {
        const res = await app.server.inject({ method: 'POST', url: '/api/party/new', headers: as(user) });
        expect(res.statusCode).toBe(403);
      }
      expect((await current()).agent_id).toBe(before.agent_id);
      const res = await app.server.inject({ method: 'POST', url: '/api/party/new', headers: as(root) });
      expect(res.statusCode, res.body).toBe(200);
      const fresh = partyAgentSchema.parse(res.json());
      expect(fresh.agent_id).not.toBe(before.agent_id);
      expect((await current()).agent_id).toBe(fresh.agent_id);
      const rows = await app.database.db.select().from(agents).where(eq(agents.purpose, 'party'));
      expect(rows.find((r) => r.id === before.agent_id)?.archived).toBe(true);
      expect((app.runner as RecordingRunner).interrupted).toContain(before.agent_id);
      expect(rows.find((r) => r.id === fresh.agent_id)).toMatchObject({
        archived: false,
        creatorId: root.id,
      });
    });

    it("issues a read-only token that reads the party agent's feed and nothing else", async () => {
      const party = await current();
      const res = await app.server.inject({ url: '/api/temp-auth-token?party=true' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const token = res.json().auth_token as string;
      const q = `trajectory_id=${party.agent_id}`;
      for (const url of [
        `/api/agent/metadata?${q}`,
        `/api/agent/conversation?${q}`,
        `/api/agent/latest-timestamp?${q}`,
      ]) {
        const read = await app.server.inject({ url, headers: bearer(token) });
        expect(read.statusCode, `${url}: ${read.body}`).toBe(200);
      }
      const meta = (
        await app.server.inject({ url: `/api/agent/metadata?${q}`, headers: bearer(token) })
      ).json();
      expect(meta).toMatchObject({ id: party.agent_id, is_own: false });
      // Another agent, another API, any write: as if there were no credential at all.
      const other = `trajectory_id=${privateAgent}`;
      const refused = [
        { method: 'GET' as const, url: `/api/agent/metadata?${other}` },
        { method: 'GET' as const, url: `/api/agent/conversation?${other}` },
        { method: 'GET' as const, url: `/api/agent/latest-timestamp?${other}` },
        {
          method: 'GET' as const,
          url: `/api/agent/file?${other}&repository_name=acme/secret&path=README.md`,
        },
        { method: 'GET' as const, url: '/api/agents' },
        { method: 'GET' as const, url: '/api/users/me' },
        { method: 'GET' as const, url: '/api/agents/status-counts' },
        { method: 'GET' as const, url: `/api/agent/scripts?${q}` },
        { method: 'GET' as const, url: '/api/temp-auth-token' },
        { method: 'POST' as const, url: `/api/agent/message?${q}`, payload: { message: 'steer' } },
        { method: 'POST' as const, url: `/api/agent/mark-read?${q}` },
        { method: 'POST' as const, url: '/api/agent/interrupt', payload: { trajectory_id: party.agent_id } },
        {
          method: 'POST' as const,
          url: '/api/agent/update-title',
          payload: { trajectory_id: party.agent_id, title: 'Owned' },
        },
        { method: 'POST' as const, url: '/api/party/new' },
        { method: 'POST' as const, url: '/api/party/message', payload: { message: 'no lead' } },
        { method: 'GET' as const, url: '/api/admin/installations' },
      ];
      for (const call of refused) {
        const r = await app.server.inject({ ...call, headers: bearer(token) });
        expect(r.statusCode, `${call.method} ${call.url}: ${r.body}`).toBe(401);
      }
      // Not a session, not a preview token, and a tampered one is nothing.
      await expect(app.sessions.resolve(token)).resolves.toBeUndefined();
      const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
      const bad = await app.server.inject({ url: `/api/agent/metadata?${q}`, headers: bearer(tampered) });
      expect(bad.statusCode).toBe(401);
    });

    it('lets signed-in people read the party agent, but still not the private one', async () => {
      const party = await current();
      const read = await app.server.inject({
        url: `/api/agent/metadata?trajectory_id=${party.agent_id}`,
        headers: as(mia),
      });
      expect(read.statusCode).toBe(200);
      expect(read.json().is_own).toBe(false);
      const other = await app.server.inject({
        url: `/api/agent/metadata?trajectory_id=${privateAgent}`,
        headers: as(mia),
      });
      expect(other.statusCode).toBe(404);
      // Party files come from the party repository only, never the installation's other ones.
      const file = await app.server.inject({
        url: `/api/agent/file?trajectory_id=${party.agent_id}&repository_name=acme/secret&path=README.md`,
        headers: as(mia),
      });
      expect(file.statusCode).toBe(404);
    });

    it("stores visitors' messages under 'anon-' names from their own lead, never another's", async () => {
      const party = await current();
      const guest = await partyVisitor(app);
      const send = (payload: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
        app.server.inject({ method: 'POST', url: '/api/party/message', payload, ...extra });
      const ok = await send(
        { message: '<script>alert(1)</script> hello', lead_id: guest.leadId, username: 'root' },
        { cookies: guest.cookies, remoteAddress: '10.0.0.1' },
      );
      expect(ok.statusCode, ok.body).toBe(200);
      const eventUuid = ok.json().event_uuid as string;
      const [item] = await app.database.db
        .select()
        .from(conversationItems)
        .where(eq(conversationItems.actionUuid, eventUuid));
      expect(item).toMatchObject({ agentId: party.agent_id, userId: root.id, actionType: 'website_request' });
      expect(item!.data).toMatchObject({
        message: '<script>alert(1)</script> hello',
        username: `anon-${guest.leadId.slice(0, 6)}`,
        party_sender: 'visitor',
      });
      expect((app.runner as RecordingRunner).enqueued.at(-1)).toBe(party.agent_id);

      // Someone else's lead (no cookie for it), a made-up one, none at all.
      const other = await partyVisitor(app);
      const stolen = await send({ message: 'as them', lead_id: other.leadId }, { cookies: guest.cookies });
      expect(stolen.statusCode).toBe(403);
      expect(stolen.json().detail).toBe(PARTY_LEAD_MESSAGE);
      const badFormat = await send({ message: 'x', lead_id: 'lead-1' }, { cookies: guest.cookies });
      expect(badFormat.statusCode).toBe(422);
      expect((await send({ message: 'x' })).statusCode).toBe(401);

      // Signed in: under their own name, whatever the body says. latest_timestamp moves forward even
      // when it ran ahead of the clock, and the sender's read mark keeps up with it.
      const ahead = new Date(Date.now() + 60_000);
      await app.database.db
        .update(agents)
        .set({ latestTimestamp: ahead })
        .where(eq(agents.id, party.agent_id));
      const asMia = await send(
        { message: 'hi all', username: 'root' },
        { headers: as(mia), remoteAddress: '10.0.0.2' },
      );
      expect(asMia.statusCode, asMia.body).toBe(200);
      const [miaItem] = await app.database.db
        .select()
        .from(conversationItems)
        .where(eq(conversationItems.actionUuid, asMia.json().event_uuid as string));
      expect(miaItem).toMatchObject({ userId: mia.id });
      expect(miaItem!.data).toMatchObject({ username: 'mia', party_sender: 'user' });
      const [moved] = await app.database.db
        .select({ latest: agents.latestTimestamp })
        .from(agents)
        .where(eq(agents.id, party.agent_id));
      expect(moved!.latest!.getTime()).toBeGreaterThan(ahead.getTime());
      const [miaRead] = await app.database.db
        .select({ readAt: agentReads.readAt })
        .from(agentReads)
        .where(and(eq(agentReads.agentId, party.agent_id), eq(agentReads.userId, mia.id)));
      expect(miaRead!.readAt.getTime()).toBe(moved!.latest!.getTime());
    });

    it('caps sizes: long messages 422, huge bodies 413, images refused', async () => {
      const guest = await partyVisitor(app);
      const send = (payload: unknown) =>
        app.server.inject({
          method: 'POST',
          url: '/api/party/message',
          payload: payload as Record<string, unknown>,
          cookies: guest.cookies,
          remoteAddress: '10.0.0.3',
        });
      const long = await send({ message: 'x'.repeat(201), lead_id: guest.leadId });
      expect(long.statusCode).toBe(422);
      expect(long.json().detail).toBe(partyTooLongMessage(200));
      const huge = await send({ message: 'x'.repeat(100_000), lead_id: guest.leadId });
      expect(huge.statusCode).toBe(413);
      const image = await send({
        message: 'look',
        lead_id: guest.leadId,
        images: [{ data: 'aGk=', type: 'image/png', name: 'a.png' }],
      });
      expect(image.statusCode).toBe(422);
      expect((await send({ message: '   ', lead_id: guest.leadId })).statusCode).toBe(422);
      expect((await send({ message: 'fits', lead_id: guest.leadId })).statusCode).toBe(200);
    });

    it('limits messages per visitor and per IP, with a clear 429', async () => {
      const from = (guest: Awaited<ReturnType<typeof partyVisitor>>, ip: string) =>
        app.server.inject({
          method: 'POST',
          url: '/api/party/message',
          payload: { message: 'again', lead_id: guest.leadId },
          cookies: guest.cookies,
          remoteAddress: ip,
        });
      const one = await partyVisitor(app);
      expect((await from(one, '10.1.0.1')).statusCode).toBe(200);
      expect((await from(one, '10.1.0.2')).statusCode).toBe(200);
      const third = await from(one, '10.1.0.3');
      expect(third.statusCode).toBe(429);
      expect(third.json().detail).toMatch(
        /^Slow down: the party agent takes 2 messages a minute from each visitor/,
      );
      expect(third.json().retry_after_seconds).toBeGreaterThan(0);
      // Many visitors from one address: the per-IP limit (5), counted only for messages let through.
      const ip = '10.2.0.1';
      for (let i = 0; i < 5; i++) expect((await from(await partyVisitor(app), ip)).statusCode).toBe(200);
      const sixth = await from(await partyVisitor(app), ip);
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json().detail).toMatch(/from each network address/);
      // Signed-in senders count per user; product admins are not limited.
      for (let i = 0; i < 2; i++) {
        const r = await app.server.inject({
          method: 'POST',
          url: '/api/party/message',
          payload: { message: 'me' },
          headers: as(carol),
          remoteAddress: '10.3.0.1',
        });
        expect(r.statusCode).toBe(200);
      }
      const carolThird = await app.server.inject({
        method: 'POST',
        url: '/api/party/message',
        payload: { message: 'me' },
        headers: as(carol),
        remoteAddress: '10.3.0.2',
      });
      expect(carolThird.statusCode).toBe(429);
      for (let i = 0; i < 4; i++) {
        const r = await app.server.inject({
          method: 'POST',
          url: '/api/party/message',
          payload: { message: 'admin' },
          headers: as(root),
          remoteAddress: '10.3.0.3',
        });
        expect(r.statusCode).toBe(200);
      }
    });

    it('refuses messages while the installation is banned', async () => {
      const guest = await partyVisitor(app);
      await app.database.db
        .update(installations)
        .set({ bannedAt: new Date() })
        .where(eq(installations.id, 61));
      try {
        const res = await app.server.inject({
          method: 'POST',
          url: '/api/party/message',
          payload: { message: 'hello', lead_id: guest.leadId },
          cookies: guest.cookies,
          remoteAddress: '10.4.0.1',
        });
        expect(res.statusCode).toBe(403);
        expect(res.json().detail).toBe(INSTALLATION_BANNED_MESSAGE);
      } finally {
        await app.database.db.update(installations).set({ bannedAt: null }).where(eq(installations.id, 61));
      }
    });

    it('stops at the daily credit cap of the party agents until the next UTC day', async () => {
      const party = await current();
      const guest = await partyVisitor(app);
      const send = (ip: string) =>
        app.server.inject({
          method: 'POST',
          url: '/api/party/message',
          payload: { message: 'still there?', lead_id: guest.leadId },
          cookies: guest.cookies,
          remoteAddress: ip,
        });
      const { db } = app.database;
      // Yesterday's spend does not count; spend by other agents does not count.
      await db.insert(creditTransactions).values({
        installationId: 61,
        amount: -100 * 100,
        kind: 'agent',
        agentId: party.agent_id,
        description: 'yesterday',
        createdAt: new Date(Date.now() - 86_400_000 - 60_000),
      });
      await recordTransaction(db, {
        installationId: 61,
        amount: -100 * 100,
        kind: 'agent',
        agentId: privateAgent,
        description: 'other work',
      });
      await recordTransaction(db, {
        installationId: 61,
        amount: -49 * 100,
        kind: 'agent',
        agentId: party.agent_id,
        description: 'party today',
      });
      expect((await send('10.5.0.1')).statusCode).toBe(200);
      await recordTransaction(db, {
        installationId: 61,
        amount: -1 * 100,
        kind: 'agent',
        agentId: party.agent_id,
        description: 'party today',
      });
      const capped = await send('10.5.0.2');
      expect(capped.statusCode).toBe(429);
      expect(capped.json().detail).toBe(PARTY_DAILY_CAP_MESSAGE);
      expect(capped.json().retry_after_seconds).toBeLessThanOrEqual(86_400);
      const stored = await db
        .select()
        .from(conversationItems)
        .where(and(eq(conversationItems.agentId, party.agent_id), eq(conversationItems.itemType, 'message')));
      expect(stored.filter((i) => i.data.message === 'still there?')).toHaveLength(1);
    });
  });
});
