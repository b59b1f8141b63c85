import {
  createAgentResponseSchema,
  createRepoResponseSchema,
  INSTALLATION_HEADER,
  PRODUCT_NAME,
  type User,
} from '@tandem/shared';
import type { z } from 'zod';
import { ApiError, apiFetch } from '../../api/client';
import type { ImageAttachment } from './image-files';
import { splitRepository } from './repositories';

export type CreatedAgent = z.infer<typeof createAgentResponseSchema>;

/** What the form shows when creating fails (workspace §8). */
export const CREATE_MESSAGES = {
  generic: 'There was an error creating the agent. Refresh or try again later.',
  outOfCredits: 'Your installation is out of credits. Buy more now.',
  background: 'Agent created in background',
  repoNotInstalled: 'The repository was created, but unable to be automatically installed',
  repoConflict: "This repository isn't installed",
  repoForbidden: `${PRODUCT_NAME} does not have permission to create repositories`,
  repoGeneric: 'There was an error creating the repository. Refresh or try again later.',
} as const;

export type CreateFailure =
  | { kind: 'credits' }
  /** `settingsLink`: the failure is fixed in the code host's App settings. */
  | { kind: 'message'; text: string; settingsLink?: boolean };

export interface NewAgentInput {
  repository: string;
  body: string;
  images: ImageAttachment[];
  /** Left out when the model list has not loaded: the server picks its defaults. */
  model?: string | undefined;
  reviewModel?: string | null | undefined;
  /** The base-branch picker's choice; unset → the repository's default branch. */
  baseBranch?: string | null | undefined;
  /** Admins only: a supervisor agent, or the supervisor an editor reports to. */
  isSupervisor?: boolean;
  supervisorId?: string | null;
}

/**
 * The installation a repository that Tandem does not know yet would be created in: the one named
 * like its owner. Null when the user already has the repository, or no installation matches.
 */
export function installationToCreateIn(user: User, repository: string): number | null {
  const lower = repository.trim().toLowerCase();
  if (user.repositories.some((repo) => repo.toLowerCase() === lower)) return null;
  const { owner } = splitRepository(repository);
  return user.installations.find((i) => i.name.toLowerCase() === owner.toLowerCase())?.id ?? null;
}

export function repoCreationFailure(error: unknown): CreateFailure {
  const status = error instanceof ApiError ? error.status : 0;
  if (status === 401) return { kind: 'message', text: CREATE_MESSAGES.repoNotInstalled, settingsLink: true };
  if (status === 409) return { kind: 'message', text: CREATE_MESSAGES.repoConflict };
  if (status === 403) return { kind: 'message', text: CREATE_MESSAGES.repoForbidden, settingsLink: true };
  return { kind: 'message', text: CREATE_MESSAGES.repoGeneric };
}

export function agentCreationFailure(error: unknown): CreateFailure {
  if (error instanceof ApiError && error.status === 402) return { kind: 'credits' };
  return { kind: 'message', text: CREATE_MESSAGES.generic };
}

/**
 * Creates the agent: a repository Tandem does not know yet is created first in the installation
 * of its owner (docs/decisions.md), then POST /api/agents/create-agent/{owner}/{repo}.
 */
export async function createAgent(
  user: User,
  input: NewAgentInput,
): Promise<
  { ok: true; created: CreatedAgent; repoCreated: boolean } | { ok: false; failure: CreateFailure }
> {
  const { owner, repo } = splitRepository(input.repository);
  const installationId = installationToCreateIn(user, input.repository);
  if (installationId !== null) {
    try {
      await apiFetch('/api/installation/create-repo', {
        method: 'POST',
        body: { repo_name: repo },
        headers: { [INSTALLATION_HEADER]: String(installationId) },
        schema: createRepoResponseSchema,
      });
    } catch (error) {
      return { ok: false, failure: repoCreationFailure(error) };
    }
  }
  try {
    const created = await apiFetch(
      `/api/agents/create-agent/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`,
      {
        method: 'POST',
        body: {
          body: input.body,
          images: input.images,
          ...(input.model === undefined ? {} : { model: input.model }),
          ...(input.reviewModel === undefined ? {} : { review_model: input.reviewModel }),
          ...(input.baseBranch ? { base_branch: input.baseBranch } : {}),
          ...(input.isSupervisor ? { is_supervisor: true } : {}),
          ...(input.supervisorId ? { supervisor_id: input.supervisorId } : {}),
        },
        schema: createAgentResponseSchema,
      },
    );
    return { ok: true, created, repoCreated: installationId !== null };
  } catch (error) {
    return { ok: false, failure: agentCreationFailure(error) };
  }
}

/** The agent page, carrying the first message so it shows at once (workspace §2). */
export function agentPageUrl(repository: string, created: CreatedAgent, body: string, imageCount: number) {
  const { owner, repo } = splitRepository(repository);
  const query = new URLSearchParams({
    message: body,
    event_uuid: created.event_uuid,
    temp_title: created.temp_title,
  });
  if (imageCount > 0) query.set('image_count', String(imageCount));
  return `/gh/${owner}/${repo}/agent/${created.agent_id}?${query}`;
}
