import { CSRF_HEADER } from '@tandem/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { useBrowser } from './support/browser.js';
import { createScriptedAgent, signInAs } from './support/session.js';

const notFound = (page: Page) => page.getByText('404: Page not found').waitFor();
const expectNoA11yProblems = async (page: Page) => expect(await seriousA11yViolations(page)).toEqual([]);
const tabs = (page: Page) => page.getByRole('tablist', { name: 'Repository sections' });
const settingsApi = '/api/settings/repository/acme/api';

/** Waits for the PATCH that a settings control sends, and checks the server took it. */
async function saved(page: Page, action: () => Promise<void>): Promise<Record<string, unknown>> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith(settingsApi) && r.request().method() === 'PATCH'),
    action(),
  ]);
  expect(response.status()).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function chooseOption(page: Page, combobox: string, option: string) {
  await page.getByRole('combobox', { name: combobox }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * The repository page against the local code host's seed: ada admins acme and her own account,
 * bob writes to acme's repositories and only reads ada's public playground. acme/api is this
 * file's own repository, so changing its settings touches no other test.
 */
describe('repository page, settings and logs', () => {
  const browser = useBrowser();

  it('shows tabs by access level and the not-found screen without access', { timeout: 120_000 }, async () => {
    const secretRepo = `hidden-${Date.now()}`;
    const ada = await browser.newPage();
    await signInAs(ada.page, 'ada');
    const created = await ada.page.request.post('/api/installation/create-repo', {
      headers: { [CSRF_HEADER]: '1', 'x-installation-id': '1001' },
      data: { repo_name: secretRepo, private: true },
    });
    expect(created.status()).toBe(200);
    await ada.page.goto(`/gh/ada/${secretRepo}`);
    await tabs(ada.page).waitFor();
    expect(await tabs(ada.page).getByRole('tab').allTextContents()).toEqual(['Agents', 'Settings', 'Logs']);
    await ada.context.close();

    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    await page.goto('/gh/acme/webapp');
    await page.getByRole('form', { name: 'New agent' }).waitFor();
    expect(await tabs(page).getByRole('tab', { selected: true }).textContent()).toBe('Agents');
    expect(await tabs(page).getByRole('tab').allTextContents()).toEqual(['Agents', 'Settings', 'Logs']);
    await expectNoA11yProblems(page);

    // Read access (a public repository of another account): no Settings tab, and no settings page.
    await page.goto('/gh/ada/playground/agents');
    await page.getByRole('heading', { name: 'ada/playground' }).waitFor();
    expect(await tabs(page).getByRole('tab').allTextContents()).toEqual(['Agents', 'Logs']);
    await page.goto('/gh/ada/playground/settings');
    await notFound(page);

    // No access at all (ada's private repository): not-found on every sub-route.
    for (const tab of ['', '/agents', '/settings', '/logs', `/log/${crypto.randomUUID()}`]) {
      await page.goto(`/gh/ada/${secretRepo}${tab}`);
      await notFound(page);
      expect(await page.getByRole('form', { name: 'New agent' }).count()).toBe(0);
    }
    await expectNoA11yProblems(page);
    const api = await page.request.get(`/api/agents/ada/${secretRepo}`);
    expect(api.status()).toBe(404);

    await page.goto('/gh/acme/webapp/no-such-tab');
    await notFound(page);
    await page.goto('/repo/acme/webapp');
    await page.waitForURL('**/gh/acme/webapp/settings');
    await page.goto('/repo/acme/webapp/logs');
    await page.waitForURL('**/gh/acme/webapp/logs');
    await context.close();
  });

  it('lists script logs and shows a log', { timeout: 180_000 }, async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    await page.goto('/gh/acme/api/logs');
    await page.getByText('There are no logs yet for this repository.').waitFor();
    await expectNoA11yProblems(page);

    await createScriptedAgent(page, 'acme/api', 'Please leave a format log');
    await expect
      .poll(
        async () => {
          const res = await page.request.get('/api/repositories/acme/api/logs');
          return ((await res.json()) as { total: number }).total;
        },
        { timeout: 120_000, interval: 1000 },
      )
      .toBeGreaterThan(0);
    await page.reload();
    const table = page.getByRole('table', { name: 'Script logs' });
    const link = table.getByRole('link', { name: '.tandem/format.sh' });
    await link.waitFor();
    expect(await table.getByRole('img', { name: 'Succeeded' }).count()).toBe(1);
    await expectNoA11yProblems(page);

    const href = (await link.getAttribute('href')) ?? '';
    const logId = href.split('/').pop() ?? '';
    expect(href).toBe(`/gh/acme/api/log/${logId}`);
    await link.click();
    await page.waitForURL(`**${href}`);
    await page.getByTestId('log-output').filter({ hasText: 'formatting the api' }).waitFor();
    await expectNoA11yProblems(page);

    await page.goto(`/log/${logId}`);
    await page.waitForURL(`**${href}`);
    await page.getByTestId('log-output').filter({ hasText: 'formatting the api' }).waitFor();
    await page.goto(`/log/${crypto.randomUUID()}`);
    await page.getByText('Failed to fetch log').waitFor();
    await context.close();
  });

  it(
    'round-trips every repository setting and new agents take the defaults',
    { timeout: 180_000 },
    async () => {
      const { page, context } = await browser.newPage();
      await signInAs(page, 'bob');
      await page.goto('/gh/acme/api/settings');
      await page.getByRole('heading', { name: 'Bot Behavior' }).waitFor();
      expect(await tabs(page).getByRole('tab', { selected: true }).textContent()).toBe('Settings');
      await expectNoA11yProblems(page);

      await saved(page, () => chooseOption(page, 'Default model', 'Scripted (tests)'));
      await saved(page, () => chooseOption(page, 'Default review model', 'None'));

      // The budget: edit shows a confirm button; out of range says so; Escape and blur cancel.
      const budget = page.getByRole('textbox', { name: 'Agent budget (¢)' });
      expect(await budget.inputValue()).toBe('1500');
      expect(await page.getByRole('button', { name: 'Confirm budget' }).count()).toBe(0);
      await budget.fill('5');
      await page.getByText('Minimum 10').waitFor();
      expect(await page.getByRole('button', { name: 'Confirm budget' }).isDisabled()).toBe(true);
      await budget.fill('100001');
      await page.getByText('Maximum 100000').waitFor();
      await budget.press('Enter');
      expect(await budget.inputValue()).toBe('100001'); // not sent
      await budget.press('Escape');
      expect(await budget.inputValue()).toBe('1500');
      await budget.fill('20');
      await page.getByRole('heading', { name: 'Automations' }).click(); // blur
      expect(await budget.inputValue()).toBe('1500');
      await budget.fill('25');
      expect(
        await saved(page, () => page.getByRole('button', { name: 'Confirm budget' }).click()),
      ).toMatchObject({ credit_limit: 2500 });
      await budget.fill('10');
      expect(await saved(page, () => budget.press('Enter'))).toMatchObject({ credit_limit: 1000 });

      for (const label of ['Agents public', 'Always ask', 'Always review', 'Auto fix']) {
        await saved(page, () => page.getByLabel(label, { exact: true }).click());
      }

      await page.reload();
      await page.getByRole('heading', { name: 'Bot Behavior' }).waitFor();
      expect(await page.getByRole('combobox', { name: 'Default model' }).textContent()).toContain(
        'Scripted (tests)',
      );
      expect(await page.getByRole('combobox', { name: 'Default review model' }).textContent()).toBe('None');
      expect(await budget.inputValue()).toBe('10');
      const checked = async (label: string) => page.getByLabel(label, { exact: true }).isChecked();
      expect(await checked('Agents public')).toBe(true);
      expect(await checked('Always ask')).toBe(true);
      expect(await checked('Always review')).toBe(false);
      expect(await checked('Auto fix')).toBe(false);

      // A new agent from the Agents tab starts on the repository's model and stops at its budget.
      await tabs(page).getByRole('tab', { name: 'Agents' }).click();
      const form = page.getByRole('form', { name: 'New agent' });
      await form
        .getByRole('combobox', { name: 'Model', exact: true })
        .filter({ hasText: 'Scripted' })
        .waitFor();
      await form.getByRole('combobox', { name: 'Review model' }).filter({ hasText: 'Off' }).waitFor();
      await form.getByRole('textbox', { name: 'Message' }).fill('Please go over the budget now');
      await form.getByRole('button', { name: 'Create', exact: true }).click();
      await page.waitForURL(/\/gh\/acme\/api\/agent\//);
      await page.getByText('Exceeded budget of 10¢ since last message.').waitFor({ timeout: 90_000 });
      const agentId = new URL(page.url()).pathname.split('/').pop();
      const metadata = await page.request.get(`/api/agent/metadata?trajectory_id=${agentId}`);
      expect(await metadata.json()).toMatchObject({ model: 'scripted', review_model: null });

      // The over-budget notice links back to this section.
      await page.getByRole('link', { name: 'Change budget here' }).click();
      await page.waitForURL('**/gh/acme/api/settings#behavior');
      await page.getByRole('heading', { name: 'Bot Behavior' }).waitFor();

      for (const change of [
        { default_model: null },
        { default_review_model: null },
        { credit_limit: 150_000 },
        { agents_public: false },
        { always_ask: false },
        { always_review: true },
        { auto_fix: true },
      ]) {
        const res = await page.request.patch(settingsApi, { headers: { [CSRF_HEADER]: '1' }, data: change });
        expect(res.status()).toBe(200);
      }
      await context.close();
    },
  );

  it('applies the secrets rules', { timeout: 120_000 }, async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    await page.goto('/gh/acme/api/settings');
    const form = page.getByRole('form', { name: 'Add secret' });
    await form.waitFor();
    const name = form.getByRole('textbox', { name: 'Name' });
    const value = form.getByLabel('Value');
    const add = form.getByRole('button', { name: 'Add' });
    const secrets = page.getByRole('list', { name: 'Secrets' });
    expect(await name.getAttribute('maxlength')).toBe('9999');
    expect(await value.getAttribute('maxlength')).toBe('100000');

    expect(await add.isDisabled()).toBe(true);
    await name.fill('my_token');
    expect(await name.inputValue()).toBe('MY_TOKEN');
    expect(await add.isDisabled()).toBe(true);
    await value.fill('   ');
    expect(await add.isDisabled()).toBe(true);

    await name.fill('1bad');
    await value.fill('long-enough-value');
    await add.click();
    await form.getByText('Invalid Environment Variable Name').waitFor();

    await name.fill('api_key');
    await add.click();
    await secrets.getByText('API_KEY').waitFor();
    expect(await name.inputValue()).toBe('');

    await name.fill('Api_Key');
    await value.fill('another-value');
    await add.click();
    await form.getByText('A secret with that name already exists').waitFor();

    // Short values need a confirmation about scrubbing.
    await name.fill('SHORT');
    await value.fill('abc');
    await add.click();
    const dialog = page.getByRole('dialog', { name: 'Add a short secret?' });
    await dialog.waitFor();
    await expectNoA11yProblems(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await secrets.getByText('API_KEY').waitFor();
    expect(await secrets.getByText('SHORT').count()).toBe(0);
    await add.click();
    await page
      .getByRole('dialog', { name: 'Add a short secret?' })
      .getByRole('button', { name: 'Add anyway' })
      .click();
    await secrets.getByText('SHORT').waitFor();

    // Deleting needs a confirmation too.
    await page.getByRole('button', { name: 'Delete API_KEY' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete API_KEY?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await secrets.getByText('API_KEY').waitFor();
    await page.getByRole('button', { name: 'Delete API_KEY' }).click();
    await page
      .getByRole('dialog', { name: 'Delete API_KEY?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await secrets.getByText('API_KEY').waitFor({ state: 'detached' });
    await expectNoA11yProblems(page);

    const listed = await page.request.get('/api/secrets/acme/api/get-secrets');
    expect(((await listed.json()) as { secrets: { key: string }[] }).secrets.map((s) => s.key)).toEqual([
      'SHORT',
    ]);
    await context.close();
  });
});
