import type { Page } from 'playwright-core';

const KEPT_LINES = 80;

/**
 * What a page did, for a failed test's dump: its API calls (when each went out, came back and
 * with what status), console errors and uncaught errors, in time order. A stale screen then shows
 * whether a read never went out, failed or came back and was not shown.
 */
export function recordPageLog(page: Page): () => string {
  const started = Date.now();
  const lines: string[] = [];
  const add = (line: string) => {
    lines.push(`${String(Date.now() - started).padStart(6)} ms  ${line}`);
    if (lines.length > KEPT_LINES) lines.shift();
  };
  const apiPath = (url: string) => {
    const { pathname, search } = new URL(url);
    return pathname.startsWith('/api/') ? `${pathname}${search}` : null;
  };
  page.on('request', (request) => {
    const path = apiPath(request.url());
    if (path) add(`→ ${request.method()} ${path}`);
  });
  page.on('requestfinished', (request) => {
    const path = apiPath(request.url());
    // The page may close before the answer is read (the test ended): that rejection is no error.
    if (path)
      request.response().then(
        (response) => add(`← ${response?.status() ?? '?'} ${path}`),
        () => add(`← (page closed before its answer was read) ${path}`),
      );
  });
  page.on('requestfailed', (request) => {
    const path = apiPath(request.url());
    if (path) add(`✗ ${request.failure()?.errorText ?? 'failed'} ${path}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') add(`console: ${message.text().slice(0, 300)}`);
  });
  page.on('pageerror', (error) => add(`page error: ${String(error).slice(0, 300)}`));
  return () =>
    `(started ${new Date(started).toISOString()}, the last ${KEPT_LINES} lines)\n${lines.join('\n')}`;
}
