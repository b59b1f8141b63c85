import { tool, zodSchema, type ToolSet } from 'ai';
import { ciLog, ciStatus } from './ci.js';
import { setTitle, taskComplete, waitTool } from './control.js';
import { editFile, viewFiles } from './files.js';
import { commitAndPush, gitFetch } from './git.js';
import { closeNumber, commentOnNumber, makeIssue, openPullRequest, subscribe, viewNumber } from './github.js';
import { REVIEW_PURPOSE, submitReview } from './review.js';
import { gitGrep } from './search.js';
import { SUPERVISOR_TOOLS } from './supervisor.js';
import { runCommand, shellInput, shellStop } from './shell.js';
import type { ToolDefinition } from './types.js';

export const AGENT_TOOLS: readonly ToolDefinition[] = [
  viewFiles,
  editFile,
  runCommand,
  shellInput,
  shellStop,
  gitGrep,
  commitAndPush,
  gitFetch,
  openPullRequest,
  commentOnNumber,
  makeIssue,
  closeNumber,
  viewNumber,
  subscribe,
  ciStatus,
  ciLog,
  setTitle,
  waitTool,
  taskComplete,
] as ToolDefinition[];

/**
 * A reviewer works on a person's branch: it must not commit, push, open or close anything there.
 * Its tools are the reading ones plus submit_review; a call to any other is an unknown tool.
 */
const REVIEWER_EXCLUDED = new Set(['commit_and_push', 'open_pull_request', 'close_number', 'make_issue']);
const REVIEWER_TOOLS: readonly ToolDefinition[] = [
  ...AGENT_TOOLS.filter((t) => !REVIEWER_EXCLUDED.has(t.name)),
  submitReview as ToolDefinition,
];

/**
 * A supervisor keeps every editor tool (it may look at and fix things itself) and adds the tools
 * that start, message, read and wait for its sub-agents.
 */
const SUPERVISOR_AGENT_TOOLS: readonly ToolDefinition[] = [
  ...AGENT_TOOLS,
  ...(SUPERVISOR_TOOLS as ToolDefinition[]),
];

/** The tools of an agent of this purpose (agents.purpose) and type (agents.agent_type). */
export function toolsFor(
  purpose: string | null | undefined,
  agentType?: string | null,
): readonly ToolDefinition[] {
  if (purpose === REVIEW_PURPOSE) return REVIEWER_TOOLS;
  return agentType === 'supervisor' ? SUPERVISOR_AGENT_TOOLS : AGENT_TOOLS;
}

export function findTool(
  name: string,
  purpose?: string | null,
  agentType?: string | null,
): ToolDefinition | undefined {
  return toolsFor(purpose, agentType).find((t) => t.name === name);
}

const toolSets = new Map<readonly ToolDefinition[], ToolSet>();

/**
 * The tools as the model sees them; the loop executes calls itself (no `execute` here). Made once
 * per tool list: the AI SDK turns each zod input schema into JSON Schema on first use and keeps
 * it in the schema object, so a set made per step converted every schema on every model request
 * (a measurable share of the server's CPU with many agents, issue 15).
 */
export function toolSet(purpose?: string | null, agentType?: string | null): ToolSet {
  const tools = toolsFor(purpose, agentType);
  let set = toolSets.get(tools);
  if (!set) {
    set = Object.fromEntries(
      tools.map((t) => [t.name, tool({ description: t.description, inputSchema: zodSchema(t.input) })]),
    );
    toolSets.set(tools, set);
  }
  return set;
}

export { REVIEW_PURPOSE };
export type {
  ToolContext,
  ToolDefinition,
  ToolOutcome,
  RunSession,
  RepoInfo,
  AgentRow,
  SubAgentView,
  SubAgentOutcome,
  SupervisionHost,
} from './types.js';
export { SUPERVISOR_TOOLS } from './supervisor.js';
export { ToolInputError } from './types.js';
