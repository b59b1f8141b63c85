import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { advancedLatest, agents, conversationItems, eventImages, type Db } from '@tandem/db';
import { type imageAttachmentSchema } from '@tandem/shared';
import type { z } from 'zod';
import { AppError } from '../../errors/app-error.js';
import { decodeImages, imageRows } from '../images.js';
import type { AuthenticatedUser } from '../sessions.js';

import { loadSteerableAgent, requireCredits } from './agent-access.js';
import { markReadAt } from './mark-read.js';

/** Stores a user's message (before answering) and queues the agent to pick it up. */
export async function sendMessage(
  db: Db,
  viewer: AuthenticatedUser,
  agentId: string,
  input: {
    message: string;
    images: z.infer<typeof imageAttachmentSchema>[];
    comments: Record<string, unknown>[];
  },
): Promise<{ event_uuid: string }> {
  const agent = await loadSteerableAgent(db, viewer, agentId, 'Only the owner can message this agent');
  if (!input.message.trim() && input.images.length === 0 && input.comments.length === 0) {
    throw new AppError('validation', 'Write a message, attach an image or add a review comment');
  }
  const images = decodeImages(input.images);
  // Refused before storing: the web app keeps the unsent text, so nothing is lost or sent twice.
  await requireCredits(db, agent.installationId);
  const eventUuid = randomUUID();
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx.insert(conversationItems).values({
      agentId,
      timestamp: now.toISOString(),
      itemType: 'message',
      actionUuid: eventUuid,
      actionType: input.comments.length && !input.message.trim() ? 'send_comments' : 'website_request',
      userId: viewer.id,
      data: {
        message: input.message,
        username: viewer.username,
        image_count: images.length,
        review_comments: input.comments,
      },
    });
    if (images.length) await tx.insert(eventImages).values(imageRows(agentId, eventUuid, images));
    await tx
      .update(agents)
      .set({ latestTimestamp: advancedLatest(now), lastActive: now, status: 'pending' })
      .where(eq(agents.id, agentId));
    // Read up to the value just set: the sender's own message never makes the agent unread.
    await markReadAt(tx, agentId, viewer.id, now);
  });
  return { event_uuid: eventUuid };
}
