import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { advancedLatest, agents, conversationItems, type Db } from '@tandem/db';
import { PARTY_DAILY_CAP_MESSAGE, partyTooLongMessage } from '@tandem/shared';
import { AppError } from '../../errors/app-error.js';
import type { PartySettings } from '../../config/party.js';
import { requireCredits, type AgentRow } from '../agents/agent-access.js';
import { markReadAt } from '../agents/mark-read.js';
import { partyCreditsSpentToday, startOfUtcDay } from './count-party-spend.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Who sends a party message. A signed-in user under their own name; a visitor under the name the
 * server makes from their lead ('anon-' and 6 characters), stored on the party agent's creator's
 * account, so the agent loop (which reads people's messages, user_id set) picks it up: the
 * operator's account pays and answers for the party anyway.
 */
export type PartySender =
  { kind: 'user'; userId: string; username: string } | { kind: 'visitor'; leadId: string; username: string };

/** 422 for an empty message or one over the operator's cap (TANDEM_PARTY_MAX_MESSAGE_CHARS). */
export function checkPartyMessage(message: string, settings: Pick<PartySettings, 'maxMessageChars'>): void {
  if (!message.trim()) throw new AppError('validation', 'Write a message');
  if ([...message].length > settings.maxMessageChars) {
    throw new AppError('validation', partyTooLongMessage(settings.maxMessageChars));
  }
}

/**
 * Stores a party message and marks the agent pending; the route then queues its run. Refused
 * before anything is stored when it is empty or too long (422), when the installation is banned
 * (403) or out of credits (402), or when the party agents have spent today's credits (429).
 */
export async function sendPartyMessage(
  db: Db,
  input: {
    agent: AgentRow;
    sender: PartySender;
    message: string;
    settings: Pick<PartySettings, 'dailyCredits' | 'maxMessageChars'>;
    now?: Date;
  },
): Promise<{ event_uuid: string }> {
  const { agent, sender, message, settings } = input;
  const now = input.now ?? new Date();
  checkPartyMessage(message, settings);
  await requireCredits(db, agent.installationId);
  if ((await partyCreditsSpentToday(db, now)) >= settings.dailyCredits) {
    const nextDay = startOfUtcDay(now).getTime() + DAY_MS;
    throw new AppError('rate_limited', PARTY_DAILY_CAP_MESSAGE, {
      retry_after_seconds: Math.max(1, Math.ceil((nextDay - now.getTime()) / 1000)),
    });
  }
  const eventUuid = randomUUID();
  await db.transaction(async (tx) => {
    await tx.insert(conversationItems).values({
      agentId: agent.id,
      timestamp: now.toISOString(),
      itemType: 'message',
      actionUuid: eventUuid,
      actionType: 'website_request',
      userId: sender.kind === 'user' ? sender.userId : agent.creatorId,
      data: {
        message,
        username: sender.username,
        image_count: 0,
        review_comments: [],
        // Tells the feed a visitor's message from the creator's own (both carry the creator's id).
        party_sender: sender.kind,
      },
    });
    await tx
      .update(agents)
      .set({ latestTimestamp: advancedLatest(now), lastActive: now, status: 'pending' })
      .where(eq(agents.id, agent.id));
    if (sender.kind === 'user') await markReadAt(tx, agent.id, sender.userId, now);
  });
  return { event_uuid: eventUuid };
}
