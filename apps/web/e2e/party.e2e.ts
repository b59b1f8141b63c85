import { STORAGE_KEYS } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { useBrowser } from './support/browser.js';
import { signInAs } from './support/session.js';

/**
 * The public party agent at /party (issue 21). The e2e server runs it on acme/api with the
 * scripted model and a cap of 3 messages a minute per visitor (support/global-setup.ts).
 */
describe('the party agent', () => {
  const browser = useBrowser();

  it(
    'lets an anonymous visitor chat, limits them, and lets an admin start afresh',
    { timeout: 150_000 },
    async () => {
      // Ada signs in once, so the acme installation and its repositories are known to the server.
      const admin = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await signInAs(admin.page, 'ada');

      const { page } = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto('/party');
      // The 'What's this?' dialog shows on the first visit, with a login prompt for visitors.
      const dialog = page.getByRole('dialog', { name: "What's this?" });
      await dialog.waitFor();
      await dialog.getByRole('link', { name: 'Login with Github' }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Got it' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.partyAgentWhatsThis)).toBe(
        'true',
      );

      // The party agent's feed, read with the visitor's read-only token: it greets first.
      const feed = page.getByRole('log', { name: 'Conversation' });
      await feed.getByTestId('feed-message').filter({ hasText: 'Welcome to the party!' }).waitFor();
      // Party mode: no title editing, no model choice, no footer or Docs link.
      await expect.poll(() => page.getByRole('textbox', { name: 'Title' }).count()).toBe(0);
      expect(await page.getByRole('contentinfo').count()).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);

      // Once only: a reload shows the workspace without the dialog.
      await page.reload();
      await feed.getByTestId('feed-message').filter({ hasText: 'Welcome to the party!' }).waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);

      // The visitor chats under 'anon-' and the first 6 characters of their lead, and sees the reply.
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Hello party');
      await box.press('Enter');
      const lead = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.leadId);
      expect(lead).toMatch(/^[0-9a-f-]{36}$/);
      const mine = feed.getByTestId('feed-message').filter({ hasText: 'Hello party' });
      await mine.waitFor();
      await mine.getByText(`anon-${lead!.slice(0, 6)}`).waitFor();
      await feed.getByTestId('feed-message').filter({ hasText: 'Hello, party guest!' }).waitFor();

      // Hostile markup is shown inert.
      await box.fill(
        '<img src="x" onerror="window.__partyPwned=1"><script>window.__partyPwned=2</script> **hi**',
      );
      await box.press('Enter');
      await feed.getByTestId('feed-message').filter({ hasText: 'hi' }).last().waitFor();
      expect(
        await page.evaluate(() => (window as unknown as { __partyPwned?: number }).__partyPwned),
      ).toBeUndefined();
      expect(await page.locator('[role="log"] script, [role="log"] [onerror]').count()).toBe(0);

      // The third message in a minute is the last: the fourth is refused with the reason, and kept.
      await box.fill('Third one');
      await box.press('Enter');
      await feed.getByTestId('feed-message').filter({ hasText: 'Third one' }).waitFor();
      await box.fill('One too many');
      await box.press('Enter');
      await page
        .getByRole('alert')
        .filter({ hasText: /^Slow down: the party agent takes 3 messages a minute from each visitor/ })
        .waitFor();
      expect(await box.inputValue()).toBe('One too many');

      // An admin starts a fresh party agent: the page moves to it.
      await admin.page.goto('/party');
      await admin.page
        .getByRole('dialog', { name: "What's this?" })
        .getByRole('button', { name: 'Got it' })
        .click();
      const adminFeed = admin.page.getByRole('log', { name: 'Conversation' });
      await adminFeed.getByTestId('feed-message').filter({ hasText: 'Hello party' }).waitFor();
      await admin.page.getByRole('button', { name: 'Start a new party agent' }).click();
      const confirm = admin.page.getByRole('dialog', { name: 'Start a new party agent?' });
      await confirm.waitFor();
      expect(await seriousA11yViolations(admin.page)).toEqual([]);
      await confirm.getByRole('button', { name: 'Start', exact: true }).click();
      await adminFeed.getByTestId('feed-message').filter({ hasText: 'Welcome to the party!' }).waitFor();
      await expect.poll(() => adminFeed.getByText('Hello party').count()).toBe(0);
      expect(await seriousA11yViolations(admin.page)).toEqual([]);
      // The visitor's page follows to the fresh agent (with a token for it) within its 15 s poll.
      await expect
        .poll(() => feed.getByText('Hello party').count(), { timeout: 30_000, interval: 1000 })
        .toBe(0);
      await feed.getByTestId('feed-message').filter({ hasText: 'Welcome to the party!' }).waitFor();
    },
  );
});
