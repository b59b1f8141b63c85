import { randomUUID } from 'node:crypto';
import { agentSideEffects } from '@tandem/db';
import type { ToolCallPart } from 'ai';
import { and, eq } from 'drizzle-orm';
import type { Requester, RunRepo } from './agent-row.js';
import type { NewItem } from './items.js';
import { loggableError } from './loggable-error.js';
import { scrubDeep } from './message-shape.js';
import type { RuntimeDeps } from './runtime-deps.js';
import {
  findTool,
  ToolInputError,
  type AgentRow,
  type ToolContext,
  type ToolOutcome,
} from './tools/index.js';
import type { WarmSandbox } from './warm-sandbox.js';

/** Which run a tool works for: the agent and repository as the run's step last read them. */
export interface ToolScope {
  deps: RuntimeDeps;
  agentId: string;
  agent: AgentRow;
  repo: RunRepo;
  signal: AbortSignal;
  emit(item: NewItem): Promise<{ actionUuid: string }>;
}

/** A tool call's output as the model is given it, scrubbed; `succeeded` when the tool did not throw. */
export interface ToolCallResult {
  text: string;
  stop?: ToolOutcome['stop'];
  succeeded?: true;
}

/**
 * Runs one tool call of the model's. Its input is the model's and is checked against the tool's
 * schema first; whatever the tool answers or throws reaches the model scrubbed of the sandbox's
 * secrets. A tool's own refusal (ToolInputError) is the model's mistake and is not logged.
 */
export async function executeToolCall(
  scope: ToolScope,
  call: ToolCallPart,
  sandbox: WarmSandbox,
  requester: Requester,
): Promise<ToolCallResult> {
  const definition = findTool(call.toolName, scope.agent.purpose, scope.agent.agentType);
  if (!definition) return { text: `Unknown tool ${call.toolName}` };
  const parsed = definition.input.safeParse(call.input);
  if (!parsed.success) return { text: `Invalid input for ${call.toolName}: ${parsed.error.message}` };
  const ctx = await toolContext(scope, call.toolCallId, sandbox, requester);
  try {
    const outcome = await definition.execute(parsed.data, ctx);
    return { text: sandbox.scrub(outcome.output), stop: outcome.stop, succeeded: true };
  } catch (error) {
    const message = sandbox.scrub(error instanceof Error ? error.message : String(error));
    if (!(error instanceof ToolInputError))
      scope.deps.logger.warn(
        { err: loggableError(error, sandbox.scrub), agentId: scope.agentId, tool: call.toolName },
        'tool failed',
      );
    return { text: `Error: ${message}` };
  }
}

/** A tool context for a repository script started outside the model's tool calls. */
export function scriptToolContext(scope: ToolScope, sandbox: WarmSandbox, requester: Requester) {
  return toolContext(scope, `script:${randomUUID()}`, sandbox, requester);
}

/** What a tool (or a repository script started for the user) runs with. */
async function toolContext(
  scope: ToolScope,
  toolCallId: string,
  sandbox: WarmSandbox,
  requester: Requester,
): Promise<ToolContext> {
  const { deps, agentId, agent, repo, signal } = scope;
  const { db } = deps;
  return {
    db,
    supervision: deps.supervision,
    agent,
    repo,
    workspace: sandbox.workspace,
    session: { shells: sandbox.shells, signal },
    github: deps.codeHost.installationOctokit(repo.installationId),
    gitAuth: { token: await deps.codeHost.installationToken(repo.installationId) },
    scrub: sandbox.scrub,
    env: sandbox.env,
    sandboxKind: deps.sandbox.kind,
    network: deps.sandbox.network,
    agentNetwork: sandbox.network,
    toolCallId,
    requester,
    // Whatever a tool shows in the feed (commit messages, titles, summaries) is scrubbed here once
    // more, so a tool that forgets to scrub a field cannot leak through it.
    // Shell output is the exception: it is scrubbed as a stream, and a piece scrubbed again alone
    // could differ at its edges from what the model was given.
    emit: (item) =>
      scope.emit(
        item.itemType === 'shell_message' ? item : { ...item, data: scrubDeep(item.data, sandbox.scrub) },
      ),
    trackPorts: (shell, ports) => sandbox.ports.update(shell, ports),
    once: async (key, effect) => {
      const [done] = await db
        .select({ result: agentSideEffects.result })
        .from(agentSideEffects)
        .where(and(eq(agentSideEffects.agentId, agentId), eq(agentSideEffects.key, key)));
      if (done) return done.result as never;
      const result = await effect();
      await db.insert(agentSideEffects).values({ agentId, key, result }).onConflictDoNothing();
      return result;
    },
  };
}
