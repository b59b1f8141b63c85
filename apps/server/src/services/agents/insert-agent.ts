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
 * Inserts the agent with the next per-repository number and its first message in one transaction,
 * so nothing the user wrote is lost and no agent exists without its message.
 */
export async function insertAgent(db: Db, spec: NewAgent): Promise<{ agentId: string; eventUuid: string }> {
  const eventUuid = randomUUID();
  const agentId = await db.transaction(async (tx) => {
    // Numbers are per repository (branch tandem-{n}): lock the repository row so two agents created
    // at once cannot both take the same number.
    await tx
      .select({ id: repositories.id })
      .from(repositories)
      .where(eq(repositories.id, spec.repositoryId))
      .for('update');
    const [next] = await tx
      .select({ n: sql<number>`coalesce(max(${agents.number}), 0) + 1` })
      .from(agents)
      .where(eq(agents.repositoryId, spec.repositoryId));
    const now = new Date();
    const [agent] = await tx
      .insert(agents)
      .values({
        number: Number(next?.n ?? 1),
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
      })
      .returning({ id: agents.id });
    await tx.insert(conversationItems).values({
      agentId: agent!.id,
      timestamp: now.toISOString(),
      itemType: 'message',
      actionUuid: eventUuid,
      actionType: spec.firstMessage.actionType,
      userId: spec.creatorId,
      data: spec.firstMessage.data,
    });
    const images = spec.firstMessage.images ?? [];
    if (images.length) await tx.insert(eventImages).values(imageRows(agent!.id, eventUuid, images));
    await tx.insert(agentReads).values({ agentId: agent!.id, userId: spec.creatorId, readAt: now });
    return agent!.id;
  });
  return { agentId, eventUuid };
}
