import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { createScriptedAgent, signInAs } from './support/session';

/**
 * Every page passes axe-core with no serious or critical violation, signed out and signed in, in
 * light and dark themes where pages differ.
 */
describe('accessibility (axe-core)', () => {
  const browser = useBrowser();

  async function check(page: Page, path: string, ready: () => Promise<unknown>) {
    await page.goto(path);
    await ready();
    expect(await seriousA11yViolations(page), path).toEqual([]);
  }

  it('public pages', { timeout: 120_000 }, async () => {
    const { page, context } = await browser.newPage();
    const main = () => page.getByRole('main').first().waitFor();
    for (const path of [
      // The landing page (landing.html for visitors), in both variants.
      '/?landingVariant=twobutton',
      '/landing?landingVariant=loginrequest',
      '/docs',
      '/docs/behavior/scripts',
      '/team',
      '/privacy',
      '/blog',
      '/login',
      '/no-such-page',
    ]) {
      await check(page, path, main);
    }
    // The dark theme has its own colours: check the pages that differ most.
    await page.goto('/');
    await page.keyboard.press('Alt+KeyT');
    for (const path of ['/?landingVariant=twobutton', '/?landingVariant=loginrequest', '/docs', '/team'])
      await check(page, path, main);
    await context.close();
  });

  it('signed-in pages: agents, repositories, an agent workspace', { timeout: 180_000 }, async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    const main = () => page.getByRole('main').first().waitFor();
    for (const path of ['/agents', '/gh', '/gh/acme/webapp/agents', '/installations', '/cli-auth-success']) {
      await check(page, path, main);
    }
    const agentId = await createScriptedAgent(page, 'acme/webapp', 'Say hello');
    await check(page, `/agents/${agentId}`, () => page.getByTestId('feed-message').first().waitFor());
    await context.close();
  });

  it('the admin pages and a repositories list', { timeout: 120_000 }, async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'ada');
    await check(page, '/admin/blog', () => page.getByRole('main').first().waitFor());
    await check(page, '/admin/installations', () =>
      page.getByRole('table', { name: 'Installations' }).waitFor(),
    );
    await check(page, '/admin/task_monitor', () => page.getByRole('table', { name: 'Tasks' }).waitFor());
    await check(page, '/admin/agents', () => page.getByRole('table', { name: 'Agents' }).waitFor());
    await check(page, '/admin/dashboard', () => page.getByRole('table', { name: 'Daily figures' }).waitFor());
    await check(page, '/admin/users', () => page.getByRole('table', { name: 'Users' }).waitFor());
    await check(page, '/admin/repositories', () =>
      page.getByRole('table', { name: 'Repositories' }).waitFor(),
    );
    await check(page, '/gh', () => page.getByRole('list', { name: 'Repositories' }).waitFor());
    await context.close();
  });
});
