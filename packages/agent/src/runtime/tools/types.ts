import type { PortShell } from '../ports.js';
import type { Db, agents } from '@tandem/db';
import type { GitHubClient } from '@tandem/github';
import type { z } from 'zod';
import type {
  AgentNetwork,
  GitAuth,
  PreparedWorkspace,
  Scrubber,
  SandboxKind,
  ShellSession,
} from '../../sandbox/index.js';
import type { NewItem } from '../items.js';

export type AgentRow = typeof agents.$inferSelect;

export interface RepoInfo {
  id: string;
  fullName: string;
  owner: string;
  name: string;
  installationId: number;
  defaultBranch: string;
}

/** What a run keeps while it lives: its warm shells and how to stop it. */
export interface RunSession {
  shells: Map<number, { session: ShellSession; actionUuid: string; command: string }>;
  signal: AbortSignal;
}

/** A sub-agent as its supervisor's tools see it. */
export type SubAgentView = {
  id: string;
  number: number;
  title: string;
  repository: string | null;
  status: string;
  /** Links to the pull requests the sub-agent opened. */
  pullRequests: string[];
  /** Its latest task_complete summary, if it has finished once. */
  summary: string | null;
};

/** How a sub-agent's run ended, as its report to the supervisor says. */
export type SubAgentOutcome = 'completed' | 'stopped' | 'failed' | 'paused';

/**
 * The host's side of supervisor agents (the server owns the database rules: credits, bans, sunset
 * mode, repository access, the runner). Absent where no host provides it: the tools then refuse.
 */
export interface SupervisionHost {
  /** Creates a sub-agent through the same service as a person's create; returns what was made. */
  startSubAgent(
    supervisor: AgentRow,
    input: { repository: string; task: string; base_branch?: string },
  ): Promise<SubAgentView>;
  messageSubAgent(supervisor: AgentRow, subAgentId: string, message: string): Promise<SubAgentView>;
  listSubAgents(supervisor: AgentRow): Promise<SubAgentView[]>;
  /** A sub-agent's run ended: its report goes to the supervisor's feed (and wakes a waiting one). */
  reportBack(subAgentId: string, outcome: SubAgentOutcome, detail: string | null): Promise<void>;
}

export interface ToolContext {
  /** Supervisor agents' host services (sub-agents); undefined when the host has none. */
  supervision?: SupervisionHost;
  db: Db;
  agent: AgentRow;
  repo: RepoInfo;
  workspace: PreparedWorkspace;
  session: RunSession;
  github: GitHubClient;
  gitAuth: GitAuth;
  scrub: Scrubber;
  /** The repository's secrets, as environment variables of every command. */
  env: Record<string, string>;
  sandboxKind: SandboxKind;
  network: boolean;
  /** The agent's network namespace: every command joins it (bubblewrap only). */
  agentNetwork?: AgentNetwork | null;
  toolCallId: string;
  /** The person whose message the agent is working on: co-author of its commits. */
  requester: { username: string; email: string | null; autoCreatePr?: boolean };
  emit(item: NewItem): Promise<{ actionUuid: string }>;
  /** A shell's listening ports changed (none once it exits): the shell item and the ports menu follow. */
  trackPorts(shell: PortShell, ports: number[]): Promise<void>;
  /**
   * Runs an outside effect once per tool call: a resumed run gets the stored result instead of
   * acting again.
   */
  once<T extends Record<string, unknown>>(key: string, effect: () => Promise<T>): Promise<T>;
}

export interface ToolOutcome {
  /** What the model reads back (secrets scrubbed). */
  output: string;
  /** 'complete' ends the run; 'wait' pauses it for `seconds`. */
  stop?: { kind: 'complete' } | { kind: 'wait'; seconds: number };
}

export interface ToolDefinition<Schema extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: Schema;
  execute(input: z.infer<Schema>, ctx: ToolContext): Promise<ToolOutcome>;
}

export function defineTool<Schema extends z.ZodType>(
  definition: ToolDefinition<Schema>,
): ToolDefinition<Schema> {
  return definition;
}

/** A mistake the model made (bad path, no match): reported back to it, not an error of the run. */
export class ToolInputError extends Error {}
