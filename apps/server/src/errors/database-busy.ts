/**
 * Postgres' answers that mean "no connection for you right now", not a bug: too many connections
 * (server-wide or for the role) and a server starting up or shutting down.
 */
const BUSY_CODES = new Set(['53300', '57P03']);

/**
 * Whether a failure came from a database that refused a connection. drizzle wraps pg's error in
 * its own (DrizzleQueryError) with pg's as the `cause`, so the chain is walked a few links deep.
 */
export function databaseBusy(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && BUSY_CODES.has(code)) return true;
    current = current.cause;
  }
  return false;
}
