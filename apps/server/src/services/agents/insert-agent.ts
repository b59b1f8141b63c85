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

type Executor = Pick<Db, '$with' | 'with' | 'insert'>;

/**
 * One statement: the agent with the next number of its repository, and, in data-modifying CTEs,
 * its first message, that message's images and the creator's read mark. All or nothing.
 */
async function insertRows(db: Executor, spec: NewAgent, agentId: string, eventUuid: string): Promise<void> {
  const now = new Date();
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
    .with(message, read, ...withImages)
    .insert(agents)
    .values({
      id: agentId,
      number: sql`(select coalesce(max(${agents.number}), 0) + 1 from ${agents} where ${agents.repositoryId} = ${spec.repositoryId})`,
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
}

/**
 * Inserts the agent with the next per-repository number and its first message in one transaction,
 * so nothing the user wrote is lost and no agent exists without its message. The transaction is
 * two statements, the repository's lock and one insert whose data-modifying CTEs write the rest:
 * on the embedded database a transaction holds every other query off for its round trips (issue
 * 15: 100 agents created at once).
 */
export async function insertAgent(db: Db, spec: NewAgent): Promise<{ agentId: string; eventUuid: string }> {
  const eventUuid = randomUUID();
  // Chosen here so that the rows referring to the agent can be written in the same statement.
  const agentId = randomUUID();
  await db.transaction(async (tx) => {
    // Numbers are per repository (branch tandem-{n}): lock the repository row so two agents created
    // at once cannot both take the same number. The insert is a statement of its own: its snapshot,
    // taken after the lock, sees the agent that the previous holder inserted.
    await tx
      .select({ id: repositories.id })
      .from(repositories)
      .where(eq(repositories.id, spec.repositoryId))
      .for('update');
    await insertRows(tx, spec, agentId, eventUuid);
  });
  return { agentId, eventUuid };
}
