import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { agentReads, agents, conversationItems, eventImages, repositories, type Db } from '@tandem/db';
import { imageRows, type DecodedImage } from '../images.js';

/** A new agent's row and its first message, whoever asked for it (the web app, the CLI, GitHub). */
export interface NewAgent {
  repositoryId: string;
  installationId: number;
  creatorId: string;
  model: { key: string; defaultLimit: number };
  reviewModel: string | null;
  agentType?: 'editor' | 'supervisor';
  supervisorId?: string | null;
  baseBranch?: string | null;
  purpose?: string | null;
  /** The branch to work on from the start (a reviewer's: the pull request's head). */
  branch?: string | null;
  firstMessage: {
    actionType: string;
    data: Record<string, unknown>;
    images?: DecodedImage[];
  };
}

/**
 * Inserts the agent with the next number of its repository, its first message, that message's
 * images and the creator's read mark, so nothing the user wrote is lost and no agent exists
 * without its message: one statement, all or nothing.
 *
 * The number comes from the repository's counter, bumped by an UPDATE in a data-modifying CTE of
 * the same statement. On Postgres that UPDATE's row lock orders creates that run at once, and a
 * create that waited re-reads the counter its predecessor left. No transaction: on the embedded
 * database a transaction holds every other query off for its round trips (issue 15: 100 agents
 * created at once). The counter never goes below the highest number stored, should an agent have
 * been written another way.
 */
export async function insertAgent(db: Db, spec: NewAgent): Promise<{ agentId: string; eventUuid: string }> {
  const eventUuid = randomUUID();
  // Chosen here so that the rows referring to the agent can be written in the same statement.
  const agentId = randomUUID();
  const now = new Date();
  const numbered = db.$with('numbered').as(
    db
      .update(repositories)
      .set({
        lastAgentNumber: sql`greatest(${repositories.lastAgentNumber}, (select coalesce(max(${agents.number}), 0) from ${agents} where ${agents.repositoryId} = ${spec.repositoryId})) + 1`,
      })
      .where(eq(repositories.id, spec.repositoryId))
      .returning({ number: repositories.lastAgentNumber }),
  );
  const message = db.$with('first_message').as(
    db
      .insert(conversationItems)
      .values({
        agentId,
        timestamp: now.toISOString(),
        itemType: 'message',
        actionUuid: eventUuid,
        actionType: spec.firstMessage.actionType,
        userId: spec.creatorId,
        data: spec.firstMessage.data,
      })
      .returning({ id: conversationItems.id }),
  );
  const read = db
    .$with('creator_read')
    .as(
      db
        .insert(agentReads)
        .values({ agentId, userId: spec.creatorId, readAt: now })
        .returning({ agentId: agentReads.agentId }),
    );
  const images = spec.firstMessage.images ?? [];
  const withImages = images.length
    ? [
        db.$with('first_images').as(
          db
            .insert(eventImages)
            .values(imageRows(agentId, eventUuid, images))
            .returning({ n: eventImages.n }),
        ),
      ]
    : [];
  await db
    .with(numbered, message, read, ...withImages)
    .insert(agents)
    .values({
      id: agentId,
      // No repository row: no number, and the NOT NULL refuses the whole statement.
      number: sql`(select ${numbered.number} from ${numbered})`,
      status: 'pending',
      repositoryId: spec.repositoryId,
      installationId: spec.installationId,
      creatorId: spec.creatorId,
      model: spec.model.key,
      reviewModel: spec.reviewModel,
      summarizationLimit: spec.model.defaultLimit,
      agentType: spec.agentType ?? 'editor',
      supervisorId: spec.supervisorId ?? null,
      baseBranch: spec.baseBranch ?? null,
      purpose: spec.purpose ?? null,
      branch: spec.branch ?? null,
      latestTimestamp: now,
      lastActive: now,
    });
  return { agentId, eventUuid };
}
