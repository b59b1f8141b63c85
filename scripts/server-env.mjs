/**
 * What `npm start` adds to the server's environment (scripts/start.mjs); the bench starts its
 * processes with the same (bench/servers.ts). A value already in `env` wins.
 *
 * MALLOC_ARENA_MAX: glibc gives each thread that contends for malloc an arena of its own and keeps
 * what they freed: with PGlite on a worker thread that held about 30 MB more of an idle server's
 * memory (docs/decisions.md "PGlite on a worker thread"). One arena, not two: after a start on a
 * busy machine the idle server read up to 256 MB with two against 235 with one (docs/decisions.md
 * "One malloc arena"). glibc reads it once at process start, so only the launcher can set it.
 */
export function serverEnvAdditions(env) {
  return { MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? '1' };
}
