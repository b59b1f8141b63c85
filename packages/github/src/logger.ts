/**
 * Where the client reports what operators should see (rate limits, auth clock skew). Shaped as
 * `warn(message, details)` so a pino logger fits with a one-line adapter.
 */
export interface ClientLogger {
  warn(message: string, details?: Record<string, unknown>): void;
}

/**
 * Octokit's own `log`. Its debug/info lines and its per-request error lines (every 404 would be
 * one; callers handle those errors) are dropped; its warnings (e.g. auth clock skew) go to the
 * client logger, or nowhere when there is none, which keeps tests quiet.
 */
export function octokitLog(logger: ClientLogger | undefined) {
  const ignore = () => {};
  return {
    debug: ignore,
    info: ignore,
    warn: (message: string) => logger?.warn(message, { source: 'octokit' }),
    error: ignore,
  };
}
