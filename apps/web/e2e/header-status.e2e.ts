import { CSRF_HEADER } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';
import { signInAs } from './support/session.js';

describe('the header while agents run', () => {
  const browser = useBrowser();

  it('shows the running spinner, notifies when the agent is ready, and clears the bell with Mark all read', async () => {
    const { page, context } = await browser.newPage();
    await context.grantPermissions(['notifications']);
    // Record notifications instead of showing them.
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
    // Ready notifications need the user's Enable Notifications setting (platform §4).
    const enabled = await page.request.patch('/api/settings/user', {
      headers: { [CSRF_HEADER]: '1' },
      data: { notifications_enabled: true },
    });
    expect(enabled.status()).toBe(200);
    await page.reload();
    const created = await page.request.post('/api/agents/create-agent/acme/webapp', {
      headers: { [CSRF_HEADER]: '1' },
      data: { body: 'take your time with this', model: 'scripted' },
    });
    expect(created.status()).toBe(200);

    const header = page.getByRole('banner');
    await header.getByRole('button', { name: /^Running agents: \d+/ }).waitFor();
    await page.waitForFunction(
      () => (window as unknown as { shownNotifications: string[] }).shownNotifications.length > 0,
      undefined,
      { timeout: 30_000 },
    );
    expect(
      await page.evaluate(() => (window as unknown as { shownNotifications: string[] }).shownNotifications),
    ).toContain('Agent in acme/webapp ready for feedback');

    // Its answer makes it unread; 'Mark all read' empties the bell.
    const bell = header.getByRole('button', { name: /^Unread agents: / });
    await header.getByRole('button', { name: /^Unread agents: [1-9]/ }).waitFor();
    await bell.click();
    await page.getByRole('menuitem', { name: 'Mark all read' }).click();
    await header.getByRole('button', { name: 'Unread agents: 0' }).waitFor();
    await bell.click();
    await page.getByText('No unread messages').waitFor();
    await context.close();
  }, 60_000);
});
