export { AgentNetwork, type AgentNetworkOptions } from './agent-network.js';
export { detectSandbox, type SandboxKind, type SandboxSupport } from './detect.js';
export { runCommand, sandboxEnv, type RunOptions, type RunResult } from './exec.js';
export { createScrubber, REDACTED, type Scrubber, type StreamScrubber } from './scrub.js';
export { storableDeep, storableText } from './storable-text.js';
export { ShellSession, type ShellEvent, type ShellStartOptions } from './shell-session.js';
export { mustSandboxGit, sandboxGit, type GitWorkspace } from './sandbox-git.js';
export { WarmPool } from './warm-pool.js';
export { withWorkspaceLock, workspaceLockPath, type WorkspaceLockOptions } from './workspace-lock.js';
export { readRepoScript, MAX_CONTENTS_CHARS as MAX_SCRIPT_CONTENTS_CHARS } from './repo-script.js';
export {
  git,
  mirrorDir,
  prepareWorkspace,
  fetchOrigin,
  pushBranch,
  runRepoScript,
  type GitAuth,
  type GitResult,
  type PrepareOptions,
  type PreparedWorkspace,
  type ScriptRun,
} from './workspace.js';
