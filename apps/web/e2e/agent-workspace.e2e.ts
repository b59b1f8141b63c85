import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';
import { signInAs, createScriptedAgent } from './support/session.js';

describe('the agent workspace', () => {
  const browser = useBrowser();

  it('shows the run as it happens, sends a message, renames and archives', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    const agentId = await createScriptedAgent(page, 'acme/webapp', 'Please read the README');

    // The short form is normalised to the workspace route.
    await page.goto(`/agents/${agentId}`);
    await page.waitForURL(new RegExp(`/gh/acme/webapp/agent/${agentId}$`));
    const feed = page.getByRole('log', { name: 'Conversation' });
    await feed.getByText('Please read the README').waitFor();
    // Items arrive without a reload: the scripted model reads the README and completes.
    await feed.getByText('I will read the README first.').waitFor();
    await feed.getByText('Viewed README.md').waitFor();
    await feed.getByText('Read the README.').waitFor();
    await page.getByRole('heading', { name: /^⏸/ }).waitFor();

    // A sent message shows at once as pending, then as the stored message; the agent answers.
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('One more thing, please');
    await box.press('Enter');
    await feed.getByTestId('pending-message').or(feed.getByText('One more thing, please')).first().waitFor();
    await feed.getByTestId('feed-message').filter({ hasText: 'One more thing, please' }).waitFor();
    await feed.getByTestId('feed-message').filter({ hasText: 'Done.' }).waitFor();
    // The pending copy leaves once the send's answer (its event_uuid) meets the stored message.
    await expect.poll(() => feed.getByTestId('pending-message').count()).toBe(0);
    expect(await box.inputValue()).toBe('');

    // Title validation, then a rename.
    await page.getByRole('heading', { level: 1 }).click();
    const title = page.getByRole('textbox', { name: 'Title' });
    await title.fill('x');
    await page.getByText('Title must be between 2 and 200 characters').waitFor();
    await title.fill('Readme tour');
    await title.press('Enter');
    await page.getByRole('heading', { name: '⏸ Readme tour' }).waitFor();

    // Review model off, and the summarization-limit editor shows the server's message.
    await page.getByRole('combobox', { name: 'Review model' }).click();
    await page.getByRole('option', { name: 'Off', exact: true }).click();
    await page.getByRole('combobox', { name: 'Review model' }).filter({ hasText: 'Off' }).waitFor();
    await page.getByRole('button', { name: /^Context .* tokens: change the summarization limit$/ }).click();
    const limit = page.getByRole('textbox', { name: 'Summarization limit' });
    await limit.fill('lots');
    await limit.press('Enter');
    await page.getByText('Summarization limit must be a valid number.').waitFor();
    await limit.press('Escape');

    // Archiving from its own page goes to the repository's agents.
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.waitForURL(/\/gh\/acme\/webapp\/agents$/);
    await page.getByText('Agent archived').waitFor();
    // And unarchiving from the page keeps the user there.
    await page.goto(`/gh/acme/webapp/agent/${agentId}`);
    await page.getByRole('button', { name: 'Unarchive' }).click();
    await page.getByText('Agent unarchived').waitFor();
    await page.getByRole('button', { name: 'Archive' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/gh/acme/webapp/agent/${agentId}`);
    await context.close();
  });

  it('creates an agent from the form and opens it, the message shown at once', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    const form = page.getByRole('form', { name: 'New agent' });
    await form.getByRole('combobox', { name: 'Repository' }).fill('acme/webapp');
    await form.getByRole('combobox', { name: 'Repository' }).press('Escape');
    await form.getByRole('combobox', { name: 'Model', exact: true }).click();
    await page.getByRole('option', { name: /Scripted \(tests\)/ }).click();
    await form.getByRole('textbox', { name: 'Message' }).fill('Open me right away');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/gh\/acme\/webapp\/agent\/[0-9a-f-]+$/);
    const feed = page.getByRole('log', { name: 'Conversation' });
    await feed.getByText('Open me right away').first().waitFor();
    await feed.getByText('Read the README.').waitFor();
    // temp_title names the agent until it names itself.
    await page.getByRole('heading', { level: 1, name: /^[▶⏸] Open me right away$/ }).waitFor();
    // The hand-over parameters are gone from the address, and the message shows once.
    expect(new URL(page.url()).search).toBe('');
    expect(await feed.getByText('Open me right away').count()).toBe(1);
    // The same title after a reload (no longer in the address), in the heading and the tab; the ▶/⏸
    // is an icon, its character kept only for the accessible name.
    await page.reload();
    const heading = page.getByRole('heading', { level: 1, name: /^[▶⏸] Open me right away$/ });
    await heading.waitFor();
    await expect.poll(() => page.title()).toMatch(/^(\(\d+\) )?[▶⏸] Open me right away · Tandem$/);
    expect(await heading.locator('svg[aria-hidden="true"]').count()).toBe(1);
    await context.close();
  });

  it('opens a shell in a tab, keeps the layout across reloads, and uses a drawer on small screens', async () => {
    const { page, context } = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signInAs(page, 'bob');
    const agentId = await createScriptedAgent(page, 'acme/webapp', 'run a command please');
    await page.goto(`/agents/${agentId}`);
    const feed = page.getByRole('log', { name: 'Conversation' });
    await feed.getByText('Ran it.').waitFor();
    await feed.getByRole('button', { name: /^Open Shell #\d+$/ }).click();
    const tab = page.getByRole('tab', { name: /^Shell #\d+/ });
    await tab.waitFor();
    const panel = page.getByRole('tabpanel');
    await panel.getByText('$ echo from-the-shell').waitFor();
    await panel.getByText(/from-the-shell\n/).waitFor();

    await page.reload();
    await page.getByRole('tab', { name: /^Shell #\d+/ }).waitFor();
    await page.getByRole('button', { name: /^Close Shell #\d+$/ }).click();
    expect(await page.getByRole('tab', { name: /^Shell #/ }).count()).toBe(0);

    // Small screens: the tabs live in a drawer opened from a button that counts them.
    await page.setViewportSize({ width: 390, height: 844 });
    await feed.getByRole('button', { name: /^Open Shell #\d+$/ }).click();
    const drawer = page.locator('.MuiDrawer-paper');
    await drawer.getByRole('tab', { name: /^Shell #\d+/ }).waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    const tabsButton = page.getByRole('button', { name: /Tabs/ });
    expect(await tabsButton.textContent()).toContain('1');
    await tabsButton.click();
    await drawer.getByRole('tab', { name: /^Shell #\d+/ }).waitFor();
    await context.close();
  });

  it('shows the 404 page for an agent that does not exist', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    await page.goto('/agent/00000000-0000-4000-8000-000000000000');
    await page.getByText('404: Page not found').waitFor();
    await context.close();
  });
});
