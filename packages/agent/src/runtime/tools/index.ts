import { tool, type ToolSet } from 'ai';
import { setTitle, taskComplete, waitTool } from './control.js';
import { editFile, viewFiles } from './files.js';
import { commitAndPush } from './git.js';
import { closeNumber, commentOnNumber, makeIssue, openPullRequest, subscribe, viewNumber } from './github.js';
import { gitGrep } from './search.js';
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
  openPullRequest,
  commentOnNumber,
  makeIssue,
  closeNumber,
  viewNumber,
  subscribe,
  setTitle,
  waitTool,
  taskComplete,
] as ToolDefinition[];

export function findTool(name: string): ToolDefinition | undefined {
  return AGENT_TOOLS.find((t) => t.name === name);
}

/** The tools as the model sees them; the loop executes calls itself (no `execute` here). */
export function toolSet(): ToolSet {
  return Object.fromEntries(
    AGENT_TOOLS.map((t) => [t.name, tool({ description: t.description, inputSchema: t.input })]),
  );
}

export type { ToolContext, ToolDefinition, ToolOutcome, RunSession, RepoInfo, AgentRow } from './types.js';
export { ToolInputError } from './types.js';
