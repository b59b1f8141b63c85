import { CSRF_HEADER, SETTINGS_MESSAGES } from '@tandem/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { createScriptedAgent, signInAs } from './support/session';

/** Sets the signed-in user's toggles through the API (the page's own flows are tested below). */
async function setUserSettings(page: Page, change: Record<string, boolean>) {
  const res = await page.request.patch('/api/settings/user', {
    headers: { [CSRF_HEADER]: '1' },
    data: change,
  });
  expect(res.status()).toBe(200);
}

const storedSettings = async (page: Page) =>
  (await (await page.request.get('/api/settings/user')).json()) as {
    notifications_enabled: boolean;
    auto_create_pr: boolean;
  };

describe('settings and transactions', () => {
  const browser = useBrowser();

  it('an installation admin manages users; their own row is locked', { timeout: 90_000 }, async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'ada');
    // From the user menu.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await page.waitForURL(/\/settings$/);
    const main = page.getByRole('main');
    await main.getByRole('heading', { name: 'User Settings' }).waitFor();
    await main.getByRole('heading', { name: 'Users' }).waitFor();

    // Repositories with the code host's page for choosing them.
    const repos = main.getByRole('region', { name: 'Repositories' });
    await repos.getByRole('link', { name: 'acme/webapp' }).waitFor();
    expect(await repos.getByRole('link', { name: 'Manage Repositories' }).getAttribute('href')).toMatch(
      /\/organizations\/acme\/settings\/installations\/1000$/,
    );
    // Billing shows the credits and links to the ledger; Add Installation goes to the code host.
    const billing = main.locator('#billing');
    await billing.getByTestId('credits-available').waitFor();
    expect(await billing.getByRole('link', { name: 'View transactions' }).getAttribute('href')).toBe(
      '/transactions/1000',
    );
    expect(await main.getByRole('link', { name: 'Add Installation' }).getAttribute('href')).toMatch(
      /\/apps\/[^/]+\/installations\/new$/,
    );
    expect(await seriousA11yViolations(page)).toEqual([]);

    const users = main.getByRole('region', { name: 'Users' });
    const row = (username: string) => users.locator(`tr[data-username="${username}"]`);
    // Bob has not signed in yet in this run, so ada is alone: her own row has no role control and
    // cannot be removed.
    await row('ada').waitFor();
    expect(await row('ada').getByRole('combobox').count()).toBe(0);
    expect(await row('ada').getByRole('button', { name: 'Remove ada' }).isDisabled()).toBe(true);

    // An unknown username: the §8 text with the reason.
    await users.getByLabel('Username').fill('no-such-person');
    await users.getByRole('button', { name: 'Add User' }).click();
    await page.getByText(SETTINGS_MESSAGES.usersUpdate).waitFor();

    // Add eve (a code-host user outside acme) with the default role, member.
    await users.getByLabel('Username').fill('eve');
    await users.getByRole('button', { name: 'Add User' }).click();
    await row('eve').waitFor();
    expect(await row('eve').getByRole('combobox', { name: 'Role of eve' }).textContent()).toBe('Member');
    expect(await row('eve').getByRole('button', { name: 'Remove eve' }).isDisabled()).toBe(false);

    // Make her an admin, then remove her.
    await row('eve').getByRole('combobox', { name: 'Role of eve' }).click();
    await page.getByRole('option', { name: 'Admin' }).click();
    await page.getByText('eve is now an admin').waitFor();
    await page.reload();
    await row('eve').waitFor();
    expect(await row('eve').getByRole('combobox', { name: 'Role of eve' }).textContent()).toBe('Admin');
    await row('eve').getByRole('button', { name: 'Remove eve' }).click();
    await page.getByText('Removed eve').waitFor();
    await row('eve').waitFor({ state: 'detached' });
    expect(await seriousA11yViolations(page)).toEqual([]);

    // /settings#billing lands on the billing section.
    await page.goto('/settings#billing');
    await billing.getByTestId('credits-available').waitFor();
    await page.waitForFunction(() => {
      const box = document.getElementById('billing')?.getBoundingClientRect();
      return box !== undefined && box.top >= 0 && box.top < window.innerHeight;
    });
    await context.close();
  });

  it('a member sees only their own settings', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    await page.goto('/settings');
    const main = page.getByRole('main');
    await main.getByLabel('Automatic PR Creation').waitFor();
    expect(await main.getByRole('heading', { name: 'Users' }).count()).toBe(0);
    expect(await main.getByRole('heading', { name: 'Billing' }).count()).toBe(0);
    expect(await main.getByRole('heading', { name: 'Repositories' }).count()).toBe(0);
    // The API refuses the users table to members.
    expect((await page.request.get('/api/settings/users-table')).status()).toBe(403);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Automatic PR Creation round-trips.
    const toggle = main.getByLabel('Automatic PR Creation');
    const before = await toggle.isChecked();
    await toggle.click();
    await expect.poll(async () => (await storedSettings(page)).auto_create_pr).toBe(!before);
    await page.reload();
    expect(await main.getByLabel('Automatic PR Creation').isChecked()).toBe(!before);
    await setUserSettings(page, { auto_create_pr: true });
    await context.close();
  });

  it('enabling notifications without permission shows the toast and asks the browser', async () => {
    const { page, context } = await browser.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { permissionRequests: number };
      w.permissionRequests = 0;
      const original = Notification.requestPermission.bind(Notification);
      Notification.requestPermission = () => {
        w.permissionRequests += 1;
        return original();
      };
    });
    await signInAs(page, 'bob');
    await setUserSettings(page, { notifications_enabled: false });
    await page.goto('/settings');
    const toggle = page.getByRole('main').getByLabel('Enable Notifications');
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    await page.getByText(SETTINGS_MESSAGES.notificationPermission).waitFor();
    expect(
      await page.evaluate(() => (window as unknown as { permissionRequests: number }).permissionRequests),
    ).toBe(1);
    await expect.poll(async () => (await storedSettings(page)).notifications_enabled).toBe(true);

    // A failed save rolls the switch back and says so.
    await page.route('**/api/settings/user', (route) =>
      route.request().method() === 'PATCH' ? route.fulfill({ status: 500, body: '{}' }) : route.continue(),
    );
    await toggle.click();
    await page.getByText(SETTINGS_MESSAGES.update).waitFor();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await page.unroute('**/api/settings/user');
    await context.close();

    // With the browser's permission there is no toast, and the choice is stored.
    const granted = await browser.newPage();
    await granted.context.grantPermissions(['notifications']);
    await signInAs(granted.page, 'bob');
    await setUserSettings(granted.page, { notifications_enabled: false });
    await granted.page.goto('/settings');
    const grantedToggle = granted.page.getByRole('main').getByLabel('Enable Notifications');
    await grantedToggle.click();
    await expect.poll(async () => (await storedSettings(granted.page)).notifications_enabled).toBe(true);
    expect(await granted.page.getByText(SETTINGS_MESSAGES.notificationPermission).count()).toBe(0);
    await granted.context.close();
  });

  it('no ready notification while Enable Notifications is off', async () => {
    const { page, context } = await browser.newPage();
    await context.grantPermissions(['notifications']);
    await page.addInitScript(() => {
      const shown: string[] = [];
      (window as unknown as { shownNotifications: string[] }).shownNotifications = shown;
      class RecordingNotification {
        static permission = 'granted';
        onclick: (() => void) | null = null;
        constructor(title: string) {
          shown.push(title);
        }
      }
      (window as unknown as { Notification: unknown }).Notification = RecordingNotification;
    });
    await signInAs(page, 'bob');
    await setUserSettings(page, { notifications_enabled: false });
    await page.reload();
    const header = page.getByRole('banner');
    await createScriptedAgent(page, 'acme/webapp', 'take your time with this');
    await header.getByRole('button', { name: /^Running agents: \d+/ }).waitFor();
    await header
      .getByRole('button', { name: /^Running agents/ })
      .waitFor({ state: 'detached', timeout: 30_000 });
    // One more poll after it stopped.
    await page.waitForTimeout(3500);
    expect(
      await page.evaluate(() => (window as unknown as { shownNotifications: string[] }).shownNotifications),
    ).toEqual([]);
    await context.close();
  });

  it("the transactions page shows the free credits and an agent's charges", { timeout: 90_000 }, async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'ada');
    const agentId = await createScriptedAgent(page, 'acme/webapp', 'Say hello');
    // The balance is in the header; it leads to the ledger.
    await page.getByRole('link', { name: /^Credits available: .*View transactions$/ }).click();
    await page.waitForURL(/\/transactions\/1000$/);
    const table = page.getByRole('table', { name: 'Credit transactions' });
    const free = table.getByRole('row', { name: /Free credits for new installations/ });
    await free.waitFor();
    expect(await free.getByRole('cell').first().textContent()).toBe('+3,000¢');

    // The agent's model calls, each linking to the agent, with a negative amount.
    const agentLink = `a[href="/gh/acme/webapp/agent/${agentId}"]`;
    const charge = table.locator(agentLink).first();
    await expect
      .poll(
        async () => {
          await page.reload();
          await free.waitFor();
          return charge.count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBeGreaterThan(0);
    expect(await charge.textContent()).toBe('Scripted (tests) call');
    const chargeRow = table
      .getByRole('row')
      .filter({ has: page.locator(agentLink) })
      .first();
    expect(await chargeRow.getByRole('cell').first().textContent()).toMatch(/^-[\d.,]+¢$/);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Filters: without Agents only the free credits remain; 25 rows a page by default.
    await page.getByRole('checkbox', { name: 'Agents' }).click();
    await table.getByRole('link', { name: 'Scripted (tests) call' }).first().waitFor({ state: 'detached' });
    await free.waitFor();
    expect(page.url()).toContain('agents=false');
    await page.getByText('Rows per page').waitFor();
    expect(await page.getByRole('combobox', { name: /Rows per page/ }).textContent()).toBe('25');

    // /transactions uses the active installation; a bad id says what is missing.
    await page.goto('/transactions');
    await free.waitFor();
    await page.goto('/transactions/abc');
    await page.getByText('Missing installation id').waitFor();
    await context.close();
  });
});
