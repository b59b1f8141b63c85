import { WORKING_STATUSES } from '@tandem/shared';

/** An agent is working while its status is open, pending or waiting (workspace §4). */
export function isWorking(status: string | undefined): boolean {
  return status !== undefined && (WORKING_STATUSES as readonly string[]).includes(status);
}

/** ▶ before a working agent's title, ⏸ otherwise. */
export function displayTitle(agent: { status: string; title: string }): string {
  return `${isWorking(agent.status) ? '▶' : '⏸'} ${agent.title}`;
}

/** The agent workspace route (workspace §2). */
export function agentPath(agent: { id: string; repo_name: string | null }): string {
  return agent.repo_name ? `/gh/${agent.repo_name}/agent/${agent.id}` : `/agents/${agent.id}`;
}
