import { and, eq } from 'drizzle-orm';
import { agents, type Db } from '@tandem/db';
import { DEFAULT_AGENT_TITLE, type createAgentSchema } from '@tandem/shared';
import type { z } from 'zod';
import { AppError, notFound } from '../../errors/app-error.js';
import { decodeImages } from '../images.js';
import { resolveAgentModels } from '../repositories/resolve-agent-models.js';
import type { AuthenticatedUser } from '../sessions.js';
import type { SunsetGate } from '../sunset-gate.js';

import { requireStanding } from './agent-access.js';
import { insertAgent } from './insert-agent.js';
import { readMemberRepository, type MemberRepository } from './member-repository.js';

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

/** What every way of creating an agent needs besides the request: model choices and the rules. */
export interface AgentCreationDeps {
  models: {
    resolve(key: string | null | undefined, admin: boolean): { key: string; defaultLimit: number };
    selectable(key: string, admin: boolean): boolean;
  };
  /** Checked here, not only in the route: every path (web, CLI, admin scripts, supervisors) obeys it. */
  sunset: Pick<SunsetGate, 'requireNewAgents'>;
}

/**
 * Creates an agent and stores its first message before answering, so nothing the user wrote is
 * lost. The run is picked up by the agent runtime.
 */
export async function createAgent(
  db: Db,
  viewer: AuthenticatedUser,
  /** `owner/name`, or the repository as the caller already read it for its access check. */
  repository: string | MemberRepository,
  input: z.infer<typeof createAgentSchema>,
  deps: AgentCreationDeps,
  /** Set by the server itself, never by a request: e.g. 'generate-scripts'. */
  purpose: string | null = null,
  /**
   * A supervisor agent starts this one (services/supervisors/start-sub-agent.ts): the viewer is the
   * supervisor's creator, and the repository must be one of the supervisor's installation.
   */
  subAgentOf: { id: string; installationId: number } | null = null,
) {
  deps.sunset.requireNewAgents();
  const { models } = deps;
  const repo =
    typeof repository === 'string' ? await readMemberRepository(db, viewer.id, repository) : repository;
  // Another installation's repository answers as a missing one: its name must not leak.
  if (!repo?.member || (subAgentOf && repo.installationId !== subAgentOf.installationId))
    throw notFound('Repository not found');
  requireStanding(repo);
  if (input.is_supervisor && !viewer.admin)
    throw new AppError('forbidden', 'Supervisor agents are for admins only');
  if (input.supervisor_id) await checkSupervisor(db, viewer, repo.id, input);
  if (!input.body.trim() && input.images.length === 0)
    throw new AppError('validation', 'Write a message or attach an image');
  const images = decodeImages(input.images);
  const chosen = resolveAgentModels(input, repo, (key) => models.selectable(key, viewer.admin));
  const model = models.resolve(chosen.model, viewer.admin);
  const { reviewModel } = chosen;
  const firstMessage = subAgentOf
    ? { supervisor_id: subAgentOf.id, message: input.body, username: viewer.username, image_count: 0 }
    : { message: input.body, username: viewer.username, image_count: images.length };
  const { agentId, eventUuid } = await insertAgent(db, {
    repositoryId: repo.id,
    installationId: repo.installationId,
    creatorId: viewer.id,
    model,
    reviewModel,
    agentType: input.is_supervisor ? 'supervisor' : 'editor',
    supervisorId: subAgentOf?.id ?? input.supervisor_id ?? null,
    baseBranch: input.base_branch ?? null,
    purpose,
    firstMessage: {
      actionType: subAgentOf ? 'supervisor_request' : 'website_request',
      data: firstMessage,
      images,
    },
  });
  return { event_uuid: eventUuid, temp_title: tempTitle(input.body), agent_id: agentId };
}
