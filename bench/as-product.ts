/**
 * Imported first by the bench's targets (target.ts, agent-target.ts), which start the server
 * themselves rather than through `node apps/server/dist/main.js`; what main.ts does for the process
 * before the server starts, this does for them, so they measure the server as it runs in
 * production.
 *
 * The targets run under tsx, which turns on Node's source maps for the whole process; the product
 * runs without them. With them on, every stack trace the server formats is mapped through its
 * files' source maps, each parsed on first use: the AI SDK releases a stream reader with an error
 * per model answer, and a fresh server spent some 35 ms of its first agent parsing maps (a CPU
 * profile of the 100-agent figure). Turned off here, before the server's modules load.
 */
import {
  DEFAULT_HELPER_NICE,
  IDLE_MEMORY_DEFAULTS,
  lowerHelperThreadPriority,
  releaseMemoryWhenIdle,
} from '@tandem/process';

process.setSourceMapsEnabled(false);

// V8's compiler and GC threads below the event loop, as main.ts sets them (TANDEM_V8_HELPER_NICE).
const helpers = lowerHelperThreadPriority(Number(process.env.TANDEM_V8_HELPER_NICE ?? DEFAULT_HELPER_NICE));
if (helpers.reason)
  process.stderr.write(`bench target: V8's helper threads left as they are: ${helpers.reason}\n`);

// Memory a burst grew given back once the process is quiet, as main.ts does (TANDEM_IDLE_MEMORY_RELEASE_MB).
const releaseMb = Number(process.env.TANDEM_IDLE_MEMORY_RELEASE_MB ?? IDLE_MEMORY_DEFAULTS.growthMb);
if (releaseMb > 0) releaseMemoryWhenIdle({ growthMb: releaseMb });
