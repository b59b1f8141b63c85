import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import {
  agentReads,
  agents,
  conversationItems,
  eventImages,
  prepared,
  repositories,
  type Db,
} from '@tandem/db';
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
  const values: Record<Value, unknown> = {
    agentId,
    eventUuid,
    now,
    timestamp: now.toISOString(),
    repositoryId: spec.repositoryId,
    installationId: spec.installationId,
    creatorId: spec.creatorId,
    actionType: spec.firstMessage.actionType,
    data: spec.firstMessage.data,
    model: spec.model.key,
    reviewModel: spec.reviewModel,
    summarizationLimit: spec.model.defaultLimit,
    agentType: spec.agentType ?? 'editor',
    supervisorId: spec.supervisorId ?? null,
    baseBranch: spec.baseBranch ?? null,
    purpose: spec.purpose ?? null,
    branch: spec.branch ?? null,
  };
  const images = spec.firstMessage.images ?? [];
  // Built once (prepared.ts); a first message with images, rarer, is built with its image rows.
  if (!images.length)
    await prepared(db, 'insert_agent', (d, name) => insertStatement(d, []).prepare(name)).execute(values);
  else await insertStatement(db, imageRows(agentId, eventUuid, images)).execute(values);
  return { agentId, eventUuid };
}

type Value =
  | 'agentId'
  | 'eventUuid'
  | 'now'
  | 'timestamp'
  | 'repositoryId'
  | 'installationId'
  | 'creatorId'
  | 'actionType'
  | 'data'
  | 'model'
  | 'reviewModel'
  | 'summarizationLimit'
  | 'agentType'
  | 'supervisorId'
  | 'baseBranch'
  | 'purpose'
  | 'branch';

const v = (name: Value) => sql.placeholder(name);

/** The create, with placeholders for every value but the image rows. */
function insertStatement(db: Db, imageValues: ReturnType<typeof imageRows>) {
  const numbered = db.$with('numbered').as(
    db
      .update(repositories)
      .set({
        lastAgentNumber: sql`greatest(${repositories.lastAgentNumber}, (select coalesce(max(${agents.number}), 0) from ${agents} where ${agents.repositoryId} = ${v('repositoryId')})) + 1`,
      })
      .where(eq(repositories.id, v('repositoryId')))
      .returning({ number: repositories.lastAgentNumber }),
  );
  const message = db.$with('first_message').as(
    db
      .insert(conversationItems)
      .values({
        agentId: v('agentId'),
        timestamp: v('timestamp'),
        itemType: 'message',
        actionUuid: v('eventUuid'),
        actionType: v('actionType'),
        userId: v('creatorId'),
        data: v('data'),
      })
      .returning({ id: conversationItems.id }),
  );
  const read = db.$with('creator_read').as(
    db
      .insert(agentReads)
      .values({ agentId: v('agentId'), userId: v('creatorId'), readAt: v('now') })
      .returning({ agentId: agentReads.agentId }),
  );
  const withImages = imageValues.length
    ? [
        db
          .$with('first_images')
          .as(db.insert(eventImages).values(imageValues).returning({ n: eventImages.n })),
      ]
    : [];
  return db
    .with(numbered, message, read, ...withImages)
    .insert(agents)
    .values({
      id: v('agentId'),
      // No repository row: no number, and the NOT NULL refuses the whole statement.
      number: sql`(select ${numbered.number} from ${numbered})`,
      status: 'pending',
      repositoryId: v('repositoryId'),
      installationId: v('installationId'),
      creatorId: v('creatorId'),
      model: v('model'),
      reviewModel: v('reviewModel'),
      summarizationLimit: v('summarizationLimit'),
      agentType: v('agentType'),
      supervisorId: v('supervisorId'),
      baseBranch: v('baseBranch'),
      purpose: v('purpose'),
      branch: v('branch'),
      latestTimestamp: v('now'),
      lastActive: v('now'),
    });
}
