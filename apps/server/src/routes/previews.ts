import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '@tandem/db';
import {
  PARTY_OFF_MESSAGE,
  partyTokenQuerySchema,
  PREVIEW_TOKEN_TTL_MS,
  previewRequestSchema,
  SUBDOMAIN_LABEL,
} from '@tandem/shared';
import { z } from 'zod';
import { requireUser } from '../auth/authenticate.js';
import type { SessionTokens } from '../auth/session-tokens.js';
import { AppError, notFound } from '../errors/app-error.js';
import { parseRequest } from '../http/validation.js';
import type { PreviewSettings } from '../previews/preview-settings.js';
import { openPreview } from '../services/previews.js';

export const PREVIEWS_OFF =
  'Previews are not configured on this server. Set TANDEM_PREVIEW_URL to a wildcard domain.';

const forwardParamsSchema = z.object({
  subdomain: z.string().regex(SUBDOMAIN_LABEL, 'Preview not found'),
  '*': z.string().optional(),
});

/** Previews of agents' ports: the registry, the preview token, and the path-style entry point. */
export function previewRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    settings: PreviewSettings;
    tokens: SessionTokens;
    /**
     * The party page's read-only token for the current party agent (auth/party-reader.ts), to
     * anyone; undefined when the deployment has no party agent.
     */
    partyToken?: (() => Promise<string>) | undefined;
  },
): void {
  const { db, settings, tokens } = deps;

  app.post('/api/agent/preview', async (request) => {
    const viewer = requireUser(request);
    const body = parseRequest(previewRequestSchema, request.body, 'body');
    if (!settings.enabled) throw new AppError('unavailable', PREVIEWS_OFF);
    return openPreview(db, viewer, body, (subdomain) => settings.urlOf(subdomain));
  });

  app.get('/api/temp-auth-token', async (request, reply) => {
    const { party } = parseRequest(partyTokenQuerySchema, request.query, 'query');
    reply.header('cache-control', 'no-store');
    if (party === 'true') {
      if (!deps.partyToken) throw notFound(PARTY_OFF_MESSAGE);
      return { auth_token: await deps.partyToken() };
    }
    const viewer = requireUser(request);
    const expiresAt = new Date(Date.now() + PREVIEW_TOKEN_TTL_MS);
    return { auth_token: await tokens.sign({ userId: viewer.id, sessionId: viewer.sessionId }, expiresAt) };
  });

  /**
   * `/api/forward-port/{subdomain}{path}` (platform §7) sends the browser to the preview's own
   * origin: serving an agent's pages here would run them next to the viewer's session cookie.
   */
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!settings.enabled) throw new AppError('unavailable', PREVIEWS_OFF);
    const { subdomain, '*': rest = '' } = parseRequest(forwardParamsSchema, request.params, 'path');
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    // The router hands over the path decoded: encode it again, or a character a header cannot
    // carry (an emoji, a newline) would fail the redirect instead of passing through.
    const path = rest.split('/').map(encodeURIComponent).join('/');
    return reply.redirect(`${settings.urlOf(subdomain)}/${path}${query}`, 307);
  };
  app.all('/api/forward-port/:subdomain', forward);
  app.all('/api/forward-port/:subdomain/*', forward);
}
