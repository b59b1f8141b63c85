import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { signInAs } from './support/session';

/** Waits until a notice has finished growing in (axe measures contrast mid-transition otherwise). */
async function noticeShown(page: Page, text: string) {
  await page.getByText(text).waitFor();
  await page.waitForFunction(
    (wanted) =>
      [...document.querySelectorAll('.MuiSnackbar-root')].some((el) => el.textContent?.includes(wanted)) &&
      document.getAnimations().every((animation) => animation.playState !== 'running'),
    text,
  );
}

/** Credits shown as '3,000¢' → 3000. */
const creditsOf = (text: string | null) => Number((text ?? '').replace(/[^\d-]/g, ''));

describe('billing', () => {
  const browser = useBrowser();

  it(
    'an admin adds a test card, buys credits on /settings#billing and sees them on /transactions',
    { timeout: 120_000 },
    async () => {
      const { page, context } = await browser.newPage();
      await signInAs(page, 'ada');
      await page.goto('/settings#billing');
      const billing = page.locator('#billing');
      const balance = billing.getByTestId('credits-available');
      await balance.waitFor();
      const before = creditsOf(await balance.textContent());

      // A declined card: the provider's message, and no card is added.
      await billing.getByRole('button', { name: 'Add payment method' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add payment method' });
      const form = dialog.getByRole('form', { name: 'Card details' });
      await form.getByLabel('Card number').fill('4000 0000 0000 0002');
      await form.getByLabel('Expiry month').fill('12');
      await form.getByLabel('Expiry year').fill('2034');
      await form.getByLabel('CVC').fill('123');
      await form.getByRole('button', { name: 'Save card' }).click();
      await dialog.getByText('Your card was declined.').waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);

      // Stripe's succeeding test card.
      await form.getByLabel('Card number').fill('4242 4242 4242 4242');
      await form.getByRole('button', { name: 'Save card' }).click();
      await page.getByText('Payment method added').waitFor();
      await billing.getByText(/Visa ending in 4242/).waitFor();

      // Buy 1000 credits; they land when the stand-in's webhook is applied.
      await billing.getByLabel('Credits', { exact: true }).fill('1000');
      await billing.getByRole('button', { name: 'Buy credits' }).click();
      await expect
        .poll(async () => creditsOf(await balance.textContent()), { timeout: 20_000 })
        .toBe(before + 1000);
      await noticeShown(page, 'Credits added');
      expect(await seriousA11yViolations(page)).toEqual([]);

      // The purchase is an invoice row on the transactions page, with the new balance.
      await page.goto('/transactions');
      const main = page.getByRole('main');
      const row = main.getByRole('row').filter({ hasText: 'Purchased 1000 credits' });
      await row.waitFor();
      expect(await row.textContent()).toContain('+1,000¢');
      expect(creditsOf(await main.getByTestId('credits-available').textContent())).toBe(before + 1000);
      expect(await seriousA11yViolations(page)).toEqual([]);

      // Its invoice opens in a new tab at the billing provider (the local stand-in here).
      const [tab] = await Promise.all([
        context.waitForEvent('page'),
        row.getByRole('button', { name: 'Purchased 1000 credits' }).click(),
      ]);
      await tab.waitForURL(/\/invoices\/in_/);
      await tab.getByRole('heading', { name: /Invoice in_/ }).waitFor();
      await context.close();
    },
  );
});
