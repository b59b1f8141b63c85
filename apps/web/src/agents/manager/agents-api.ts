import { agentListSchema, modelListSchema, successResponseSchema, type AgentMetadata } from '@tandem/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '../../api/client';
import { LIST_POLL_MS, type AgentOrder, type ListParams } from './list-params';
import { splitRepository } from './repositories';
import { queryKeys } from '../../api/query-keys';

export type AgentList = z.infer<typeof agentListSchema>;

/** Every agents list (all repositories, pages and searches) sits under this key. */
export const agentListsKey = queryKeys.agentLists;

export interface AgentListRequest {
  /** `owner/name` for a repository's list; all the viewer's agents without it. */
  repository?: string | undefined;
  params: ListParams;
  order: AgentOrder;
  admin: boolean;
}

export function agentListKey(request: AgentListRequest) {
  const { repository = null, params, order, admin } = request;
  return [
    ...agentListsKey,
    repository,
    params.page,
    params.rowsPerPage,
    params.searchTerm,
    order,
    admin,
  ] as const;
}

/** GET /api/agents, or GET /api/agents/{owner}/{repo} for one repository (workspace §7). */
export function agentListUrl(request: AgentListRequest): string {
  const query = new URLSearchParams({
    page: String(request.params.page),
    rows_per_page: String(request.params.rowsPerPage),
    search: request.params.searchTerm,
    orderBy: request.order,
  });
  // Admins list every creator's agents (workspace §6).
  if (request.admin) query.set('admin', 'true');
  if (!request.repository) return `/api/agents?${query}`;
  const { owner, repo } = splitRepository(request.repository);
  return `/api/agents/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}?${query}`;
}

/** The list, polled every 10 s (workspace §9); the previous page stays on screen while the next loads. */
export function useAgentList(request: AgentListRequest) {
  return useQuery({
    queryKey: agentListKey(request),
    queryFn: ({ signal }) => apiFetch(agentListUrl(request), { schema: agentListSchema, signal }),
    refetchInterval: LIST_POLL_MS,
    placeholderData: keepPreviousData,
  });
}

export const modelListKey = queryKeys.models;

export function useModelList() {
  return useQuery({
    queryKey: modelListKey,
    queryFn: () => apiFetch('/api/models', { schema: modelListSchema }),
    staleTime: 5 * 60_000,
  });
}

/** The archive answer; an unarchive may be refused with the active agent that holds the same number. */
export const archiveResponseSchema = successResponseSchema.extend({
  error_data: z.object({ html_url: z.string(), number: z.number() }).optional(),
});
export type ArchiveResponse = z.infer<typeof archiveResponseSchema>;

/** POST /api/agent/archive or /api/agent/unarchive. */
export function setArchived(agentId: string, archived: boolean): Promise<ArchiveResponse> {
  return apiFetch(archived ? '/api/agent/archive' : '/api/agent/unarchive', {
    method: 'POST',
    body: { trajectory_id: agentId },
    schema: archiveResponseSchema,
  });
}

/**
 * The list after an agent was (un)archived (workspace §4): under an `is:archived` search the row
 * updates in place; otherwise it leaves the list and the count goes down.
 */
export function withArchived(
  list: AgentList,
  agentId: string,
  archived: boolean,
  inPlace: boolean,
): AgentList {
  if (!list.agents.some((agent) => agent.id === agentId)) return list;
  if (inPlace) {
    return {
      ...list,
      agents: list.agents.map((agent): AgentMetadata =>
        agent.id === agentId ? { ...agent, archived } : agent,
      ),
    };
  }
  return { agents: list.agents.filter((agent) => agent.id !== agentId), count: Math.max(0, list.count - 1) };
}
