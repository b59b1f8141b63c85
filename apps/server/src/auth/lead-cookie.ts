import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Binds a tracked visitor (lead) to the browser that created it. Lead ids are not secrets: they
 * show in admin pages, demo requests and logs. So `track-visit` hands out, with each new lead, a
 * signed HttpOnly cookie naming it, and only a request carrying that cookie may update the lead,
 * attach events or a demo request to it, or link it to a user at sign-in.
 */
export const LEAD_COOKIE = 'tandem_lead';
const LEAD_COOKIE_SECONDS = 365 * 24 * 60 * 60;

export function setLeadCookie(reply: FastifyReply, leadId: string, secure: boolean): void {
  reply.setCookie(LEAD_COOKIE, leadId, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: LEAD_COOKIE_SECONDS,
  });
}

/** The lead this browser created, from its signed cookie; undefined without a valid one. */
export function boundLeadId(request: FastifyRequest): string | undefined {
  const raw = request.cookies[LEAD_COOKIE];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : undefined;
}

/** `claimed` when this browser owns it, else undefined: a foreign lead id is dropped, not trusted. */
export function ownLeadId(request: FastifyRequest, claimed: string | null | undefined): string | undefined {
  return claimed && claimed === boundLeadId(request) ? claimed : undefined;
}
