import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject, onTestFailed } from 'vitest';
import { recordPageLog } from './page-log.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps dialling out on this closed network.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserHarness {
  readonly baseUrl: string;
  /** A fresh context (cookies, storage) and page; closed with the browser at the end of the file. */
  newPage(options?: {
    viewport?: { width: number; height: number };
    /** Another server than the shared one (a test that starts its own, e.g. sunset mode's). */
    baseUrl?: string;
  }): Promise<{ context: BrowserContext; page: Page }>;
}

/** Launches Debian's Chromium once per test file (cold launch ~3 s) and hands out fresh contexts. */
export function useBrowser(): BrowserHarness {
  let browser: Browser | undefined;
  const baseUrl = inject('baseUrl');
  beforeAll(async () => {
    // playwright-core gives every launch its own throwaway profile directory.
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    baseUrl,
    async newPage(options) {
      if (!browser) throw new Error('browser not launched yet');
      const context = await browser.newContext({
        baseURL: options?.baseUrl ?? baseUrl,
        viewport: options?.viewport ?? null,
      });
      const page = await context.newPage();
      const pageLog = recordPageLog(page);
      // A failed wait says only what it waited for: what the page showed instead (an agent's feed
      // with its error, say) is what tells a flaky run from a broken feature, in CI above all.
      onTestFailed(async () => {
        if (page.isClosed()) return;
        const shown = await describePage(page).catch(
          (error: unknown) => `(page unreadable: ${String(error)})`,
        );
        process.stderr.write(
          `\n--- what ${page.url()} showed when the test failed ---\n${shown}\n` +
            `--- what the page did ${pageLog()}\n---\n`,
        );
      });
      return { context, page };
    },
  };
}

/**
 * The page's conversation feed (an agent's page), else its main text; the end of it, 4000
 * characters. On an agent's page also what the API says now: the poll's latest timestamp beside the
 * newest page's (read from the database), and that page's last items, so a feed that stopped
 * updating tells a stale poll from a read that never came back; and the logs of failed scripts.
 */
async function describePage(page: Page): Promise<string> {
  const feed = page.getByRole('log', { name: 'Conversation' });
  const region = (await feed.count()) > 0 ? feed.first() : page.locator('body');
  const text = await region.innerText({ timeout: 2000 });
  const shown = text.length > 4000 ? `…${text.slice(-4000)}` : text;
  const agentId = /\/agents?\/([0-9a-f-]{36})/.exec(page.url())?.[1];
  if (!agentId) return shown;
  const api = await page.evaluate(async (id) => {
    const get = async (path: string) => {
      const response = await fetch(`${path}?trajectory_id=${id}`);
      return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
    };
    const poll = await get('/api/agent/latest-timestamp');
    const newest = await get('/api/agent/conversation');
    type Item = {
      timestamp?: string;
      item_type?: string;
      action_type?: string | null;
      pid?: number | null;
      script_log?: string | null;
      script_status?: string | null;
    };
    const page = newest.body as { latest_timestamp?: string; conversation?: Item[] } | null;
    // A format script that failed says why only in its log.
    const failedLogs = await Promise.all(
      (page?.conversation ?? [])
        .filter((item) => item.script_log && item.script_status === 'failure')
        .map(async (item) => {
          const response = await fetch(`/api/agent/log?trajectory_id=${id}&log_id=${item.script_log}`);
          const log = (await response.json().catch(() => null)) as {
            status_code?: number;
            output?: string;
          } | null;
          return `${item.script_log}: ${response.status}, exit ${log?.status_code}, output: ${log?.output?.slice(-1000)}`;
        }),
    );
    return {
      failedLogs: failedLogs.join('\n'),
      poll: `${poll.status} ${JSON.stringify(poll.body)}`,
      newest: `${newest.status} latest_timestamp ${page?.latest_timestamp}, ${page?.conversation?.length} items, the last: ${JSON.stringify(
        page?.conversation?.slice(-3).map((item) => JSON.stringify(item).slice(0, 200)),
      )}`,
      // When each step happened: which one was slow, when a run takes longer than a test waits.
      timeline: (page?.conversation ?? [])
        .map((item) => `${item.timestamp} ${item.item_type}${item.action_type ? `/${item.action_type}` : ''}`)
        .join('\n'),
      now: new Date().toISOString(),
    };
  }, agentId);
  const logs = api.failedLogs ? `\n--- failed script logs:\n${api.failedLogs}` : '';
  return `${shown}${logs}\n--- latest-timestamp now: ${api.poll}\n--- newest page now (end): ${api.newest}\n--- its items' times (read at ${api.now}):\n${api.timeline}`;
}
