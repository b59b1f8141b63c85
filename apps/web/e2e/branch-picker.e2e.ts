import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { useBrowser } from './support/browser.js';
import { signInAs } from './support/session.js';

describe('the base-branch picker', () => {
  const browser = useBrowser();

  it('lists branches, takes a new name and the agent starts from it, creating it', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    const form = page.getByRole('form', { name: 'New agent' });
    await form.getByRole('combobox', { name: 'Repository' }).fill('acme/webapp');
    await form.getByRole('combobox', { name: 'Repository' }).press('Escape');

    await form.getByRole('button', { name: 'Base branch: Default Branch' }).click();
    const dialog = page.getByRole('dialog', { name: 'Base branch' });
    await dialog.getByText("Select a base branch. It will be created if it doesn't exist.").waitFor();
    const field = dialog.getByRole('textbox', { name: 'Base branch' });
    // The placeholder is the repository's default branch once the list arrives.
    await dialog.getByRole('list', { name: 'Branches' }).getByRole('button', { name: /^main/ }).waitFor();
    expect(await field.getAttribute('placeholder')).toBe('main');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A substring filter; an invalid name is refused with the reason; Enter takes a new name.
    await field.fill('zzz-no-such');
    expect(await dialog.getByRole('list', { name: 'Branches' }).getByRole('button').count()).toBe(0);
    await field.fill('bad..name');
    await dialog.getByText('Branch name contains invalid characters').waitFor();
    await field.press('Enter');
    await dialog.waitFor(); // still open: nothing taken
    await field.fill('release/demo');
    await field.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    const button = form.getByRole('button', { name: 'Base branch: release/demo' });
    await button.waitFor();

    // The clear button unsets it; Escape closes without a change.
    await button.click();
    await dialog.getByRole('button', { name: 'Clear base branch' }).click();
    await page.keyboard.press('Escape');
    await form.getByRole('button', { name: 'Base branch: Default Branch' }).waitFor();
    await form.getByRole('button', { name: 'Base branch: Default Branch' }).click();
    await dialog.getByRole('textbox', { name: 'Base branch' }).fill('release/demo');
    await dialog.getByRole('textbox', { name: 'Base branch' }).press('Enter');
    await button.waitFor();

    // The demo model (no model key here) runs on the new base and opens its PR into it.
    await form.getByRole('textbox', { name: 'Message' }).fill('create file NOTES.md with "from the picker"');
    const created = page.waitForResponse((r) => r.url().includes('/api/agents/create-agent/acme/webapp'));
    await form.getByRole('button', { name: 'Create' }).click();
    const { agent_id } = (await (await created).json()) as { agent_id: string };
    const feed = page.getByRole('log', { name: 'Conversation' });
    const summary = feed.getByText(/Opened pull request #\d+: \S+/).first();
    await summary.waitFor({ timeout: 60_000 });
    const prUrl = (await summary.textContent())!.match(/https?:\/\/\S+\/pull\/\d+/)![0];
    const meta = (await (await page.request.get(`/api/agent/metadata?trajectory_id=${agent_id}`)).json()) as {
      base_branch: string;
    };
    expect(meta.base_branch).toBe('release/demo');
    // The pull request (on the code host, signed in there as bob) goes into the new base.
    await page.goto(prUrl);
    await page.getByText('release/demo', { exact: true }).first().waitFor();
    await context.close();
  });
});
