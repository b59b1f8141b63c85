import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '@tandem/db';
import {
  anonymousName,
  PARTY_LEAD_MESSAGE,
  PARTY_OFF_MESSAGE,
  partyMessageSchema,
  partyRateLimitMessage,
  type PartyAgent,
} from '@tandem/shared';
import { requireUser } from '../auth/authenticate.js';
import { ownLeadId } from '../auth/lead-cookie.js';
import { AppError, notFound } from '../errors/app-error.js';
import { parseRequest } from '../http/validation.js';
import type { AgentRow } from '../services/agents/agent-access.js';
import type { CurrentPartyAgent } from '../services/party/current-party-agent.js';
import { PartyMessageLimiter } from '../services/party/limit-party-messages.js';
import {
  checkPartyMessage,
  sendPartyMessage,
  type PartySender,
} from '../services/party/send-party-message.js';
import type { SunsetGate } from '../services/sunset-gate.js';

/** A party message is a few thousand characters at most: anything near this is not one (413). */
export const PARTY_BODY_LIMIT = 64 * 1024;
export const PARTY_ADMIN_ONLY = 'Only admins can start a new party agent';
export const PARTY_LEAD_NEEDED = 'Sign in, or send your visitor id (lead_id), to message the party agent';

/**
 * The public party agent (platform §7): GET /api/party/, POST /api/party/message and
 * POST /api/party/new. The read-only token of GET /api/temp-auth-token?party=true is issued in
 * routes/previews.ts, which owns that path. `party` is null when TANDEM_PARTY_REPO is unset: then
 * every party route answers 404.
 */
export function partyRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    party: CurrentPartyAgent | null;
    sunset: SunsetGate;
    enqueue: (agentId: string) => void;
    limiter?: PartyMessageLimiter;
  },
): void {
  const { db } = deps;
  const limiter = deps.limiter ?? new PartyMessageLimiter();
  const requireParty = (): CurrentPartyAgent => {
    if (!deps.party) throw notFound(PARTY_OFF_MESSAGE);
    return deps.party;
  };
  const describe = (
    party: CurrentPartyAgent,
    current: { agent: AgentRow; repoName: string },
  ): PartyAgent => ({
    agent_id: current.agent.id,
    repo_name: current.repoName,
    title: current.agent.title,
    max_message_chars: party.settings.maxMessageChars,
    messages_per_minute: party.settings.messagesPerMinute,
  });

  // The spec's path has the slash; the bare one answers the same.
  for (const path of ['/api/party/', '/api/party']) {
    app.get(path, async () => {
      const party = requireParty();
      return describe(party, await party.get());
    });
  }

  app.post('/api/party/new', async (request) => {
    const viewer = requireUser(request);
    if (!viewer.admin) throw new AppError('forbidden', PARTY_ADMIN_ONLY);
    const party = requireParty();
    const started = await party.start({ id: viewer.id, username: viewer.username });
    request.log.info({ agentId: started.agent.id, by: viewer.username }, 'party agent started');
    return describe(party, started);
  });

  app.post('/api/party/message', { bodyLimit: PARTY_BODY_LIMIT }, async (request) => {
    const party = requireParty();
    const body = parseRequest(partyMessageSchema, request.body, 'body');
    const sender = partySender(request, body.lead_id ?? null);
    deps.sunset.requireMessages();
    // Refused messages that cost nothing to check do not use up the sender's rate.
    checkPartyMessage(body.message, party.settings);
    const { agent } = await party.get();
    // Product admins run the deployment: their own messages are not rate limited.
    if (!request.user?.admin) {
      const { settings } = party;
      const hit = limiter.take([
        { scope: 'network' as const, key: `ip:${request.ip}`, max: settings.ipMessagesPerMinute },
        {
          scope: 'visitor' as const,
          key: sender.kind === 'user' ? `user:${sender.userId}` : `lead:${sender.leadId}`,
          max: settings.messagesPerMinute,
        },
      ]);
      if (hit) {
        const retry = Math.max(1, Math.ceil(hit.retryMs / 1000));
        const max = hit.scope === 'visitor' ? settings.messagesPerMinute : settings.ipMessagesPerMinute;
        throw new AppError('rate_limited', partyRateLimitMessage(hit.scope, max, retry), {
          retry_after_seconds: retry,
        });
      }
    }
    const sent = await sendPartyMessage(db, {
      agent,
      sender,
      message: body.message,
      settings: party.settings,
    });
    request.log.info(
      { agentId: agent.id, sender: sender.kind === 'user' ? sender.username : sender.leadId },
      'party message',
    );
    deps.enqueue(agent.id);
    return sent;
  });
}

/**
 * A signed-in sender by their session (their name cannot be claimed by anyone else); a visitor by
 * a lead id this browser holds the signed lead cookie for, shown as 'anon-' and its first 6
 * characters. A lead id from anywhere else (someone else's, made up) is refused.
 */
function partySender(request: FastifyRequest, leadId: string | null): PartySender {
  if (request.user) return { kind: 'user', userId: request.user.id, username: request.user.username };
  if (!leadId) throw new AppError('unauthorized', PARTY_LEAD_NEEDED);
  if (!ownLeadId(request, leadId)) throw new AppError('forbidden', PARTY_LEAD_MESSAGE);
  return { kind: 'visitor', leadId, username: anonymousName(leadId) };
}
