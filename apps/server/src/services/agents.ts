import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import {
  agentReads,
  agents,
  conversationItems,
  eventImages,
  memberships,
  repositories,
  users,
  type Db,
} from '@tandem/db';
import {
  CONVERSATION_PAGE_SIZE,
  DEFAULT_AGENT_TITLE,
  type AgentMetadata,
  type agentListQuerySchema,
  type createAgentSchema,
  type imageAttachmentSchema,
} from '@tandem/shared';
import type { z } from 'zod';
import { installationBalance, OUT_OF_CREDITS_MESSAGE } from '@tandem/agent';
import { AppError, notFound } from '../errors/app-error.js';
import { decodeImages, imageRows } from './images.js';
import { resolveAgentModels } from './repositories/resolve-agent-models.js';
import { sourcesOf } from './sources.js';
import type { AuthenticatedUser } from './sessions.js';

type AgentRow = typeof agents.$inferSelect;

/** HTTP 402 when the installation has no credits left (platform §8: the credits notice). */
async function requireCredits(db: Db, installationId: number): Promise<void> {
  if ((await installationBalance(db, installationId)) <= 0)
    throw new AppError('payment_required', OUT_OF_CREDITS_MESSAGE);
}

/** Who may see an agent: admins, its creator, and installation members when the repository shares agents. */
export function mayView(
  viewer: AuthenticatedUser,
  agent: { creatorId: string; member: string | null; agentsPublic: boolean | null },
): boolean {
  return (
    viewer.admin || agent.creatorId === viewer.id || (agent.member !== null && agent.agentsPublic === true)
  );
}

/**
 * Loads an agent the viewer may see (mayView), else 404. Also says whether the viewer is a member
 * of the agent's installation (previews need it).
 */
export async function loadAgentAccess(
  db: Db,
  viewer: AuthenticatedUser,
  agentId: string,
): Promise<{ agent: AgentRow; member: boolean }> {
  const [row] = await db
    .select({ agent: agents, agentsPublic: repositories.agentsPublic, member: memberships.userId })
    .from(agents)
    .leftJoin(repositories, eq(repositories.id, agents.repositoryId))
    .leftJoin(
      memberships,
      and(eq(memberships.installationId, agents.installationId), eq(memberships.userId, viewer.id)),
    )
    .where(eq(agents.id, agentId))
    .limit(1);
  // Someone else's agent is indistinguishable from a missing one.
  if (!row || !mayView(viewer, { ...row, creatorId: row.agent.creatorId })) throw notFound('Agent not found');
  return { agent: row.agent, member: row.member !== null };
}

async function visibleAgent(db: Db, viewer: AuthenticatedUser, agentId: string): Promise<AgentRow> {
  return (await loadAgentAccess(db, viewer, agentId)).agent;
}

export async function loadAgent(db: Db, viewer: AuthenticatedUser, agentId: string): Promise<AgentRow> {
  return visibleAgent(db, viewer, agentId);
}

/** An agent the viewer may steer (message, rename, pause…): its owner, or an admin; else 403 `refusal`. */
export async function loadSteerableAgent(
  db: Db,
  viewer: AuthenticatedUser,
  agentId: string,
  refusal: string,
): Promise<AgentRow> {
  const agent = await visibleAgent(db, viewer, agentId);
  if (agent.creatorId !== viewer.id && !viewer.admin) throw new AppError('forbidden', refusal);
  return agent;
}

async function metadataFor(db: Db, viewer: AuthenticatedUser, rows: AgentRow[]): Promise<AgentMetadata[]> {
  if (!rows.length) return [];
  const repoIds = [...new Set(rows.map((r) => r.repositoryId).filter((id): id is string => id !== null))];
  const creatorIds = [...new Set(rows.map((r) => r.creatorId))];
  const repos = repoIds.length
    ? await db
        .select({ id: repositories.id, fullName: repositories.fullName })
        .from(repositories)
        .where(inArray(repositories.id, repoIds))
    : [];
  const creators = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.id, creatorIds));
  const reads = await db
    .select()
    .from(agentReads)
    .where(
      and(
        eq(agentReads.userId, viewer.id),
        inArray(
          agentReads.agentId,
          rows.map((r) => r.id),
        ),
      ),
    );
  const sources = await sourcesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => {
    const readAt = reads.find((r) => r.agentId === row.id)?.readAt;
    return {
      id: row.id,
      title: row.title,
      status: row.status,
      repo_name: repos.find((r) => r.id === row.repositoryId)?.fullName ?? null,
      installation_id: row.installationId,
      sources: sources.get(row.id) ?? {},
      is_own: row.creatorId === viewer.id,
      model: row.model,
      review_model: row.reviewModel,
      summarization_limit: row.summarizationLimit,
      cur_tokens: row.curTokens,
      credits_spent: row.creditsSpent,
      agent_type: row.agentType,
      archived: row.archived,
      cur_ports: row.curPorts,
      base_branch: row.baseBranch,
      has_unread: row.latestTimestamp !== null && (!readAt || readAt < row.latestTimestamp),
      creator_username: creators.find((c) => c.id === row.creatorId)?.username ?? '',
      created_at: row.createdAt.toISOString(),
      last_active: row.lastActive.toISOString(),
    };
  });
}

export async function agentMetadata(
  db: Db,
  viewer: AuthenticatedUser,
  agentId: string,
): Promise<AgentMetadata> {
  const [metadata] = await metadataFor(db, viewer, [await visibleAgent(db, viewer, agentId)]);
  return metadata!;
}

/** `creator:{name|me}`, `is:archived`, `is:unarchived`, and free text matched against titles. */
export function parseAgentSearch(search: string) {
  let creator: string | undefined;
  let archived: boolean | undefined;
  const words: string[] = [];
  for (const token of search.trim().split(/\s+/).filter(Boolean)) {
    const lower = token.toLowerCase();
    if (lower.startsWith('creator:')) creator = token.slice('creator:'.length);
    else if (lower === 'is:archived') archived = true;
    else if (lower === 'is:unarchived') archived = false;
    else words.push(token);
  }
  return { creator, archived, text: words.join(' ') };
}

export async function listAgents(
  db: Db,
  viewer: AuthenticatedUser,
  query: z.infer<typeof agentListQuerySchema>,
  only: { agentType?: 'supervisor' | 'editor' } = {},
): Promise<{ agents: AgentMetadata[]; count: number }> {
  const search = parseAgentSearch(query.search);
  const filters: SQL[] = [];
  if (only.agentType) filters.push(eq(agents.agentType, only.agentType));
  if (!(query.admin === 'true' && viewer.admin)) {
    const member = db
      .select({ id: memberships.installationId })
      .from(memberships)
      .where(eq(memberships.userId, viewer.id));
    filters.push(inArray(agents.installationId, member));
    const shared = db
      .select({ id: repositories.id })
      .from(repositories)
      .where(eq(repositories.agentsPublic, true));
    filters.push(or(eq(agents.creatorId, viewer.id), inArray(agents.repositoryId, shared))!);
  }
  if (search.creator) {
    const name = search.creator.toLowerCase() === 'me' ? null : search.creator;
    if (name === null) filters.push(eq(agents.creatorId, viewer.id));
    else
      filters.push(
        inArray(
          agents.creatorId,
          db
            .select({ id: users.id })
            .from(users)
            .where(sql`lower(${users.username}) = ${name.toLowerCase()}`),
        ),
      );
  }
  if (search.archived !== undefined) filters.push(eq(agents.archived, search.archived));
  if (search.text) filters.push(ilike(agents.title, `%${search.text.replace(/[%_\\]/g, (c) => `\\${c}`)}%`));
  if (query.repository_name) {
    filters.push(
      inArray(
        agents.repositoryId,
        db
          .select({ id: repositories.id })
          .from(repositories)
          .where(sql`lower(${repositories.fullName}) = ${query.repository_name.toLowerCase()}`),
      ),
    );
  }
  const where = filters.length ? and(...filters) : undefined;
  const order =
    query.orderBy === 'created_at_asc'
      ? asc(agents.createdAt)
      : query.orderBy === 'last_active'
        ? desc(agents.lastActive)
        : desc(agents.createdAt);
  const rows = await db
    .select()
    .from(agents)
    .where(where)
    .orderBy(order, desc(agents.id))
    .limit(query.rows_per_page)
    .offset((query.page - 1) * query.rows_per_page);
  const [total] = await db.select({ n: count() }).from(agents).where(where);
  return { agents: await metadataFor(db, viewer, rows), count: total?.n ?? 0 };
}

/** A short title from the first message, until the agent names itself. */
export function tempTitle(body: string): string {
  const line = body.trim().split('\n')[0]?.trim() ?? '';
  if (line.length < 2) return DEFAULT_AGENT_TITLE;
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

export const SUPERVISOR_MESSAGES = {
  adminOnly: 'Only admins can assign an agent to a supervisor',
  notFound: 'Supervisor not found: choose one of your supervisor agents in this repository',
  nested: 'A supervisor agent cannot report to another supervisor',
} as const;

/**
 * An agent may report to a supervisor only when an admin asks (workspace §6), and only to one of
 * that admin's own supervisor agents in the same repository: otherwise anyone could attach work to
 * (and read it through) someone else's supervisor.
 */
async function checkSupervisor(
  db: Db,
  viewer: AuthenticatedUser,
  repositoryId: string,
  input: Pick<z.infer<typeof createAgentSchema>, 'supervisor_id' | 'is_supervisor'>,
): Promise<void> {
  if (!viewer.admin) throw new AppError('forbidden', SUPERVISOR_MESSAGES.adminOnly);
  if (input.is_supervisor) throw new AppError('validation', SUPERVISOR_MESSAGES.nested);
  const [supervisor] = await db
    .select({ id: agents.id })
    .from(agents)
    .where(
      and(
        eq(agents.id, input.supervisor_id!),
        eq(agents.agentType, 'supervisor'),
        eq(agents.creatorId, viewer.id),
        eq(agents.repositoryId, repositoryId),
      ),
    )
    .limit(1);
  if (!supervisor) throw new AppError('validation', SUPERVISOR_MESSAGES.notFound);
}

/**
 * Creates an agent and stores its first message before answering, so nothing the user wrote is
 * lost. The run is picked up by the agent runtime.
 */
export async function createAgent(
  db: Db,
  viewer: AuthenticatedUser,
  repoFullName: string,
  input: z.infer<typeof createAgentSchema>,
  models: {
    resolve(key: string | null | undefined, admin: boolean): { key: string; defaultLimit: number };
    selectable(key: string, admin: boolean): boolean;
  },
  /** Set by the server itself, never by a request: e.g. 'generate-scripts'. */
  purpose: string | null = null,
) {
  const [repo] = await db
    .select({
      id: repositories.id,
      installationId: repositories.installationId,
      defaultModel: repositories.defaultModel,
      defaultReviewModel: repositories.defaultReviewModel,
    })
    .from(repositories)
    .innerJoin(
      memberships,
      and(eq(memberships.installationId, repositories.installationId), eq(memberships.userId, viewer.id)),
    )
    .where(
      sql`lower(${repositories.fullName}) = ${repoFullName.toLowerCase()} and ${repositories.removedAt} is null`,
    )
    .limit(1);
  if (!repo) throw notFound('Repository not found');
  await requireCredits(db, repo.installationId);
  if (input.is_supervisor && !viewer.admin)
    throw new AppError('forbidden', 'Supervisor agents are for admins only');
  if (input.supervisor_id) await checkSupervisor(db, viewer, repo.id, input);
  if (!input.body.trim() && input.images.length === 0)
    throw new AppError('validation', 'Write a message or attach an image');
  const images = decodeImages(input.images);
  const chosen = resolveAgentModels(input, repo, (key) => models.selectable(key, viewer.admin));
  const model = models.resolve(chosen.model, viewer.admin);
  const { reviewModel } = chosen;
  const eventUuid = randomUUID();

  const agentId = await db.transaction(async (tx) => {
    // Numbers are per repository (branch tandem-{n}): lock the repository row so two agents created
    // at once cannot both take the same number.
    await tx
      .select({ id: repositories.id })
      .from(repositories)
      .where(eq(repositories.id, repo.id))
      .for('update');
    const [next] = await tx
      .select({ n: sql<number>`coalesce(max(${agents.number}), 0) + 1` })
      .from(agents)
      .where(eq(agents.repositoryId, repo.id));
    const now = new Date();
    const [agent] = await tx
      .insert(agents)
      .values({
        number: Number(next?.n ?? 1),
        status: 'pending',
        repositoryId: repo.id,
        installationId: repo.installationId,
        creatorId: viewer.id,
        model: model.key,
        reviewModel,
        summarizationLimit: model.defaultLimit,
        agentType: input.is_supervisor ? 'supervisor' : 'editor',
        supervisorId: input.supervisor_id ?? null,
        baseBranch: input.base_branch ?? null,
        purpose,
        latestTimestamp: now,
        lastActive: now,
      })
      .returning({ id: agents.id });
    await tx.insert(conversationItems).values({
      agentId: agent!.id,
      timestamp: now.toISOString(),
      itemType: 'message',
      actionUuid: eventUuid,
      actionType: 'website_request',
      userId: viewer.id,
      data: { message: input.body, username: viewer.username, image_count: images.length },
    });
    if (images.length) await tx.insert(eventImages).values(imageRows(agent!.id, eventUuid, images));
    await tx.insert(agentReads).values({ agentId: agent!.id, userId: viewer.id, readAt: now });
    return agent!.id;
  });
  return { event_uuid: eventUuid, temp_title: tempTitle(input.body), agent_id: agentId };
}

export async function conversationPage(db: Db, agentId: string, before: string | undefined) {
  const rows = await db
    .select()
    .from(conversationItems)
    .where(
      and(
        eq(conversationItems.agentId, agentId),
        before ? lt(conversationItems.timestamp, before) : undefined,
      ),
    )
    .orderBy(desc(conversationItems.timestamp))
    .limit(CONVERSATION_PAGE_SIZE + 1);
  const page = rows.slice(0, CONVERSATION_PAGE_SIZE).reverse();
  return {
    conversation: page.map((row) => ({
      ...row.data,
      item_type: row.itemType,
      action_uuid: row.actionUuid,
      pid: row.pid,
      timestamp: row.timestamp,
      action_type: row.actionType,
      user_id: row.userId,
    })),
    spice: [],
    has_more: rows.length > CONVERSATION_PAGE_SIZE,
    oldest_timestamp: page[0]?.timestamp ?? null,
  };
}

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
      .set({ latestTimestamp: now, lastActive: now, status: 'pending' })
      .where(eq(agents.id, agentId));
    await tx
      .insert(agentReads)
      .values({ agentId, userId: viewer.id, readAt: now })
      .onConflictDoUpdate({ target: [agentReads.agentId, agentReads.userId], set: { readAt: now } });
  });
  return { event_uuid: eventUuid };
}

export async function markAllRead(db: Db, viewer: AuthenticatedUser): Promise<void> {
  const now = new Date();
  const own = await db.select({ id: agents.id }).from(agents).where(eq(agents.creatorId, viewer.id));
  if (!own.length) return;
  await db
    .insert(agentReads)
    .values(own.map((a) => ({ agentId: a.id, userId: viewer.id, readAt: now })))
    .onConflictDoUpdate({ target: [agentReads.agentId, agentReads.userId], set: { readAt: now } });
}

export async function markRead(db: Db, viewer: AuthenticatedUser, agentId: string): Promise<void> {
  const now = new Date();
  await db
    .insert(agentReads)
    .values({ agentId, userId: viewer.id, readAt: now })
    .onConflictDoUpdate({ target: [agentReads.agentId, agentReads.userId], set: { readAt: now } });
}

export async function updateAgent(
  db: Db,
  viewer: AuthenticatedUser,
  agentId: string,
  change: Partial<Pick<AgentRow, 'model' | 'reviewModel' | 'summarizationLimit'>>,
): Promise<AgentRow> {
  await loadSteerableAgent(db, viewer, agentId, 'Only the owner can change this agent');
  const [updated] = await db.update(agents).set(change).where(eq(agents.id, agentId)).returning();
  return updated!;
}
