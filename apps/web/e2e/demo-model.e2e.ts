import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';
import { seriousA11yViolations } from './support/axe.js';
import { signInAs } from './support/session.js';

describe('a first run without any model key', () => {
  const browser = useBrowser();

  it('creates an agent from the form that opens a pull request with the demo model', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    const form = page.getByRole('form', { name: 'New agent' });
    await form.getByRole('combobox', { name: 'Repository' }).fill('acme/webapp');
    await form.getByRole('combobox', { name: 'Repository' }).press('Escape');

    // The demo model is preselected (nothing else can run here) and the reviewer is off, since
    // no review model can run either; one line says how to set up a real model.
    await form
      .getByRole('combobox', { name: 'Model', exact: true })
      .filter({ hasText: 'Demo (offline, free)' })
      .waitFor();
    await form.getByRole('combobox', { name: 'Review model' }).filter({ hasText: 'Off' }).waitFor();
    const hint = form.getByTestId('model-setup-hint');
    expect(await hint.textContent()).toContain('no AI');
    expect(await hint.getByRole('link', { name: 'Set up a real model' }).getAttribute('href')).toBe(
      '/docs/installation#models',
    );
    expect(await seriousA11yViolations(page)).toEqual([]);

    await form.getByRole('textbox', { name: 'Message' }).fill('add "Tried the Tandem demo." to README.md');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/gh\/acme\/webapp\/agent\//);
    const feed = page.getByRole('log', { name: 'Conversation' });
    // The run ends with a pull request on the local code host.
    const summary = feed
      .getByText(/Changed README\.md\. `npm test` passed\. Opened pull request #\d+/)
      .first();
    await summary.waitFor({ timeout: 60_000 });
    const url = (await summary.textContent())!.match(/https?:\/\/\S+\/pull\/\d+/)![0];
    // The demo model said what it is first. The feed renders only the rows near what is on screen
    // and follows new ones, so a fast run can be over before its opening was ever in view: scroll up.
    const intro = feed.getByText("I'm Tandem's offline demo model", { exact: false });
    for (let attempt = 0; attempt < 20 && (await intro.count()) === 0; attempt++) {
      await feed.evaluate((el) => {
        el.scrollTop = 0;
        el.dispatchEvent(new Event('scroll'));
      });
      await page.waitForTimeout(250);
    }
    await intro.waitFor({ timeout: 5_000 });
    const pull = await page.request.get(url);
    expect(pull.status()).toBe(200);
    expect(await pull.text()).toContain('Tried the Tandem demo.');
    await page.getByRole('heading', { level: 1, name: /Demo: add/ }).waitFor();

    // The docs page the hint links to explains the demo model and the provider keys.
    await page.goto('/docs/installation#models');
    await page.getByRole('heading', { name: 'Models' }).waitFor();
    await page.getByText('TANDEM_DEMO_MODEL=on', { exact: false }).waitFor();
    await context.close();
  });
});
