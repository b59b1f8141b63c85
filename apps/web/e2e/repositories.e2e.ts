import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';

describe('repositories', () => {
  const browser = useBrowser();

  it('takes New Repo through login to the create dialog, validates, creates, and lists the repository', async () => {
    const { page, context } = await browser.newPage();
    await page.goto('/?landingVariant=twobutton');
    await page.getByRole('main').getByRole('link', { name: 'New Repo' }).click();
    await page.getByRole('main').getByRole('link', { name: 'Login with Github' }).click();
    await page.getByRole('button', { name: 'Sign in as ada' }).click();
    await page.waitForURL(/\/gh\?openCreateRepo=true$/);
    const dialog = page.getByRole('dialog', { name: 'Create Repository' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Repository name is required').waitFor();
    await dialog.getByRole('textbox', { name: /Repository name/ }).fill('bad name!');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog
      .getByText('Repository name can only contain letters, numbers, hyphens, underscores, and periods')
      .waitFor();
    await dialog.getByRole('textbox', { name: /Repository name/ }).fill('landing-demo');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Created acme/landing-demo').waitFor();
    const link = page
      .getByRole('list', { name: 'Repositories' })
      .getByRole('link', { name: 'acme/landing-demo' });
    expect(await link.getAttribute('href')).toBe('/gh/acme/landing-demo/agents');

    await page.getByRole('textbox', { name: 'Search repositories' }).fill('zzz-nothing');
    await page.getByText('No Repositories Found').waitFor();
    await context.close();
  });
});
