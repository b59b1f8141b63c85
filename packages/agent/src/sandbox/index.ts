export { AgentNetwork, type AgentNetworkOptions } from './agent-network.js';
export { detectSandbox, type SandboxKind, type SandboxSupport } from './detect.js';
export { runCommand, sandboxEnv, type RunOptions, type RunResult } from './exec.js';
export { createScrubber, REDACTED, type Scrubber } from './scrub.js';
export { ShellSession, type ShellEvent, type ShellStartOptions } from './shell-session.js';
export { WarmPool } from './warm-pool.js';
export {
  git,
  prepareWorkspace,
  pushBranch,
  runRepoScript,
  type GitAuth,
  type GitResult,
  type PrepareOptions,
  type PreparedWorkspace,
  type ScriptRun,
} from './workspace.js';
