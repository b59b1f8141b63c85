import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';

const AGENT_ID = '0195f7c2-1111-7000-8000-000000000001';
const ITEMS = 5000;

/** 5,000 varied items: messages, views, shells with output, commits. */
function conversation() {
  const base = Date.parse('2026-11-23T08:00:00Z');
  return Array.from({ length: ITEMS }, (_, i) => {
    const timestamp = new Date(base + i * 1000).toISOString();
    const common = {
      action_uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      timestamp,
      user_id: null,
    };
    switch (i % 4) {
      case 0:
        return {
          ...common,
          item_type: 'message',
          pid: null,
          action_type: null,
          message: `Message number ${i}`,
          username: 'tandem',
          role: 'assistant',
        };
      case 1:
        return {
          ...common,
          item_type: 'view',
          pid: null,
          action_type: null,
          files: { [`src/file-${i}.js`]: 'x' },
        };
      case 2:
        return {
          ...common,
          item_type: 'shell',
          pid: i,
          action_type: null,
          command: `npm test -- ${i}`,
          active: false,
        };
      default:
        return {
          ...common,
          item_type: 'commit',
          pid: null,
          action_type: null,
          commit_sha: `abc${i}def`,
          branch: 'tandem-1',
          commit_message: `Commit ${i}`,
        };
    }
  });
}

async function fakeAgentApi(page: Page) {
  const items = conversation();
  const json = (route: Route, body: unknown) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  await page.route('**/api/agent/metadata*', (route) =>
    json(route, {
      id: AGENT_ID,
      title: 'Long conversation',
      status: 'paused',
      repo_name: 'acme/webapp',
      installation_id: 100,
      sources: {},
      is_own: true,
      model: 'scripted',
      review_model: null,
      summarization_limit: 150000,
      cur_tokens: 1000,
      credits_spent: 0,
      agent_type: 'editor',
      archived: false,
      cur_ports: [],
      base_branch: 'main',
      has_unread: false,
      creator_username: 'bob',
      created_at: '2026-11-23T08:00:00Z',
      last_active: '2026-11-23T09:00:00Z',
      sub_agents: [],
      supervisor: null,
    }),
  );
  await page.route('**/api/agent/latest-timestamp*', (route) =>
    json(route, { latest_timestamp: items.at(-1)!.timestamp }),
  );
  await page.route('**/api/agent/conversation*', (route) =>
    json(route, { conversation: items, spice: [], has_more: false, oldest_timestamp: items[0]!.timestamp }),
  );
  await page.route('**/api/agent/mark-read*', (route) => json(route, { success: true }));
}

describe('a 5,000-item conversation', () => {
  const browser = useBrowser();

  it('renders and scrolls without freezing, keeping only the visible rows in the DOM', async () => {
    const { page, context } = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto('/login');
    await page.getByRole('main').getByRole('link', { name: 'Login with Github' }).click();
    await page.getByRole('button', { name: 'Sign in as bob' }).click();
    await page.waitForURL(/\/agents$/);
    await fakeAgentApi(page);

    const started = Date.now();
    await page.goto(`/gh/acme/webapp/agent/${AGENT_ID}`);
    const feed = page.getByRole('log', { name: 'Conversation' });
    await feed.getByText(`Commit ${ITEMS - 1}`).waitFor();
    const firstPaint = Date.now() - started;

    // Rows in the DOM, counted by what they show (1,250 of the items are messages).
    const domRows = await feed.locator('[data-index]').count();
    const domMessages = await feed.getByTestId('feed-message').count();
    // Scroll from the bottom to the top in steps, timing each frame.
    const frames = await page.evaluate(async () => {
      const el = document.querySelector('[role="log"]') as HTMLElement;
      const times: number[] = [];
      for (let step = 0; step < 40; step++) {
        const before = performance.now();
        el.scrollTop = el.scrollHeight * (1 - (step + 1) / 40);
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        times.push(performance.now() - before);
      }
      return times;
    });
    await feed.getByText('Message number 0', { exact: true }).waitFor();
    const slowest = Math.max(...frames);
    const average = frames.reduce((a, b) => a + b, 0) / frames.length;
    console.log(
      `5,000 items: first paint ${firstPaint} ms, ${domRows} rows in the DOM (${((domRows / ITEMS) * 100).toFixed(1)} % of items), ` +
        `scroll step avg ${average.toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms`,
    );
    expect(domRows).toBeGreaterThan(0);
    expect(domRows).toBeLessThan(150);
    expect(domMessages).toBeLessThan(60);
    expect(firstPaint).toBeLessThan(15_000);
    // Two frames per step at 60 Hz is ~33 ms; a freeze would be hundreds.
    expect(slowest).toBeLessThan(1_000);
    await context.close();
  }, 60_000);
});
