/**
 * Where the client reports what operators should see (rate limits, auth clock skew). Shaped as
 * `warn(message, details)` so a pino logger fits with a one-line adapter.
 */
export interface ClientLogger {
  warn(message: string, details?: Record<string, unknown>): void;
}

/**
 * Octokit's own `log`: its debug/info chatter (one line per request) is dropped; its warnings and
 * errors go to the client logger, or nowhere when there is none (tests pass none, so they are quiet).
 */
export function octokitLog(logger: ClientLogger | undefined) {
  const forward = (message: string) => logger?.warn(message, { source: 'octokit' });
  return { debug: () => {}, info: () => {}, warn: forward, error: forward };
}
