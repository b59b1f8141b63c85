import type { PartySettings } from '../config/party.js';
import { LEAD_COOKIE } from '../auth/lead-cookie.js';
import type { TestApp, TestUser } from './test-app.js';

/** The party settings of the party route tests: low caps, so the tests reach them. */
export const PARTY_TEST_SETTINGS: PartySettings = {
  repo: 'acme/party',
  model: null,
  dailyCredits: 50,
  messagesPerMinute: 2,
  ipMessagesPerMinute: 5,
  maxMessageChars: 200,
};

export const as = (user?: TestUser) => (user ? { authorization: `Bearer ${user.token}` } : {});

/** A visitor as the browser is one: a lead from track-visit and its signed cookie. */
export async function partyVisitor(app: TestApp) {
  const res = await app.server.inject({ method: 'POST', url: '/api/track-visit', payload: {} });
  const leadId = res.json().lead_id as string;
  const cookie = res.cookies.find((c) => c.name === LEAD_COOKIE)!.value;
  return { leadId, cookies: { [LEAD_COOKIE]: cookie } };
}
