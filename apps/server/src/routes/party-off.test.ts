import { agents } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { PARTY_OFF_MESSAGE, SUNSET_NO_MESSAGES, type Sunset } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { as, PARTY_TEST_SETTINGS as settings, partyVisitor } from '../testing/party.js';
import { useTestApp } from '../testing/test-app.js';

/** The party routes when the deployment has no party agent, and in sunset mode (issue 21). */
describe.each(testDatabaseKinds())('party agent off or closed on %s', (kind) => {
  describe('when the operator set no TANDEM_PARTY_REPO', () => {
    const testApp = useTestApp(kind);

    it('answers 404 with a clear message everywhere, and /new still needs an admin', async () => {
      const app = testApp();
      const root = await app.signIn({ username: 'root', admin: true });
      const member = await app.signIn({ username: 'mia' });
      for (const call of [
        { method: 'GET' as const, url: '/api/party/' },
        { method: 'GET' as const, url: '/api/temp-auth-token?party=true' },
        { method: 'POST' as const, url: '/api/party/message', payload: { message: 'hi' } },
      ]) {
        const res = await app.server.inject(call);
        expect(res.statusCode, call.url).toBe(404);
        expect(res.json().detail, call.url).toBe(PARTY_OFF_MESSAGE);
      }
      expect((await app.server.inject({ method: 'POST', url: '/api/party/new' })).statusCode).toBe(401);
      const asMember = await app.server.inject({
        method: 'POST',
        url: '/api/party/new',
        headers: as(member),
      });
      expect(asMember.statusCode).toBe(403);
      const asAdmin = await app.server.inject({ method: 'POST', url: '/api/party/new', headers: as(root) });
      expect(asAdmin.statusCode).toBe(404);
    });
  });

  describe('after the sunset last day', () => {
    const ended: Sunset = {
      last_day: new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10),
      shutdown_day: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      credits_buyable: false,
      refund_note: 'Unused credits will be refunded.',
    };
    const testApp = useTestApp(kind, { party: settings, sunset: ended });

    it('takes no party messages and starts no party agent', async () => {
      const app = testApp();
      await app.signIn({
        username: 'carol',
        installations: [{ id: 71, name: 'acme', role: 'admin', repos: ['acme/party'] }],
      });
      const guest = await partyVisitor(app);
      const res = await app.server.inject({
        method: 'POST',
        url: '/api/party/message',
        payload: { message: 'hello', lead_id: guest.leadId },
        cookies: guest.cookies,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBe(SUNSET_NO_MESSAGES);
      expect((await app.server.inject({ url: '/api/party/' })).statusCode).toBe(403);
      expect(await app.database.db.select().from(agents)).toEqual([]);
    });
  });
});
