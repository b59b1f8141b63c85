export { EmbeddedRunner, newAgentStart, type AgentRunner, type NewAgentStart } from './runner.js';
export { QueueRunner, RUN_AGENT_TASK, type QueueRunnerOptions } from './queue-runner.js';
export { AgentRun, OUT_OF_CREDITS_MESSAGE } from './run-agent.js';
export type { RuntimeDeps, RuntimeLogger } from './runtime-deps.js';
export { appendItem, actionItem, keyUuid, type NewItem, type ItemType } from './items.js';
export { nextTimestamp } from './clock.js';
export { readSealedSecrets, type SealedSecret } from './agent-row.js';
export { agentBranch, prepareSandbox, workspacesDirOf, WARM_MAX, WARM_TTL_MS } from './warm-sandbox.js';
export {
  AGENT_TOOLS,
  REVIEW_PURPOSE,
  SUPERVISOR_TOOLS,
  toolsFor,
  ToolInputError,
  type SubAgentView,
  type SubAgentOutcome,
  type SupervisionHost,
} from './tools/index.js';
export { WORKFLOW_REFUSAL_MESSAGE } from './tools/git.js';
export { setNumberState, subscribeNumber, type SourceState } from './sources.js';
export { IMAGE_REF } from './history.js';
