import { eq } from 'drizzle-orm';
import { leads, sessionEvents } from '@tandem/db';
import { beforeAll, describe, expect, it } from 'vitest';
import { LEAD_COOKIE } from '../auth/lead-cookie.js';
import { useTestApp, type TestApp } from '../testing/test-app.js';

describe('visit and session tracking', () => {
  const testApp = useTestApp();
  let app: TestApp;
  beforeAll(() => {
    app = testApp();
  });

  it('creates a lead once and keeps its id on later visits', async () => {
    const first = await app.server.inject({
      method: 'POST',
      url: '/api/track-visit',
      payload: { lead_data: { utm_source: 'linkedin', landing_variant: 'twobutton' } },
    });
    const { lead_id } = first.json();
    expect(lead_id).toMatch(/[0-9a-f-]{36}/);
    // The browser keeps the lead cookie that came with the new lead and sends it back.
    const leadCookie = first.cookies.find((c) => c.name === LEAD_COOKIE)!;
    expect(leadCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const again = await app.server.inject({
      method: 'POST',
      url: '/api/track-visit',
      payload: { lead_id, lead_data: { utm_source: 'google' } },
      cookies: { [LEAD_COOKIE]: leadCookie.value },
    });
    expect(again.json()).toEqual({ lead_id });
    const rows = await app.database.db.select().from(leads);
    expect(rows).toEqual([expect.objectContaining({ id: lead_id, data: { utm_source: 'google' } })]);
  });

  it('neither changes nor echoes a lead another browser created', async () => {
    const victim = await app.server.inject({
      method: 'POST',
      url: '/api/track-visit',
      payload: { lead_data: { utm_source: 'newsletter' } },
    });
    const victimLead = victim.json().lead_id as string;
    const attackerFirst = await app.server.inject({ method: 'POST', url: '/api/track-visit', payload: {} });
    const attackerCookie = attackerFirst.cookies.find((c) => c.name === LEAD_COOKIE)!.value;

    // No lead cookie, a valid cookie for another lead, an unsigned one naming it: each gets a new lead.
    const attempts: Record<string, string>[] = [
      {},
      { [LEAD_COOKIE]: attackerCookie },
      { [LEAD_COOKIE]: victimLead },
    ];
    for (const cookies of attempts) {
      const res = await app.server.inject({
        method: 'POST',
        url: '/api/track-visit',
        payload: { lead_id: victimLead, lead_data: { utm_source: 'attacker' } },
        cookies,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().lead_id).not.toBe(victimLead);
      expect(res.body).not.toContain('newsletter');
    }
    const [stored] = await app.database.db.select().from(leads).where(eq(leads.id, victimLead));
    expect(stored!.data).toEqual({ utm_source: 'newsletter' });
  });

  it('stores a batch sent by beacon as text, and rejects garbage with a clear error', async () => {
    const events = JSON.stringify([
      { type: 'page_view', timestamp: Date.now(), data: { path: '/' } },
      { type: 'scroll', timestamp: Date.now(), data: { percent: 40 } },
      { type: 'end', timestamp: Date.now() },
    ]);
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/track-session',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      payload: JSON.stringify({ lead_id: 'lead-x', events }),
    });
    expect(res.statusCode).toBe(204);
    expect((await app.database.db.select().from(sessionEvents)).map((e) => e.type)).toEqual([
      'page_view',
      'scroll',
      'end',
    ]);

    const bad = await app.server.inject({
      method: 'POST',
      url: '/api/track-session',
      payload: { events: '[{"type":"nap"}]' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toBe('events must be a JSON array of tracking events');
  });
});
