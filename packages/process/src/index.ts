export { DEFAULT_PROCESS_NICE, launch, launcher, Launcher, type LaunchOptions } from './launcher.js';
export { LaunchedProcess } from './launched-process.js';
export type { StdioKind } from './protocol.js';
export type { PipedProcess, StartedProcess } from './started-process.js';
export {
  DEFAULT_HELPER_NICE,
  lowerHelperThreadPriority,
  type HelperThreads,
} from './helper-thread-priority.js';
export {
  collectAllAvailableGarbage,
  IDLE_MEMORY_DEFAULTS,
  releaseMemoryWhenIdle,
  type IdleMemoryReleaseOptions,
} from './idle-memory-release.js';
