import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { useBrowser } from './support/browser.js';

/**
 * A person who never opens Tandem first: they open an issue on the local code host's pages, tag
 * the bot in a comment, get the bot's answer there, then find the agent in Tandem and follow it.
 * The server has no model key, so the tag-started agent runs the offline demo model (the
 * repository's default), as a fresh install would.
 */
describe('tagging the bot on the code host', () => {
  const browser = useBrowser();

  it('starts an agent from an issue comment that answers there and shows in the workspace', async () => {
    const { page, context } = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Signing in to Tandem goes through the code host, which is how we learn its address; bob is
    // then signed in on both.
    await page.goto('/auth/github');
    await page.getByRole('button', { name: 'Sign in as bob' }).waitFor();
    const codeHost = new URL(page.url()).origin;
    await page.getByRole('button', { name: 'Sign in as bob' }).click();
    await page.waitForURL(/\/agents$/);

    await page.goto(`${codeHost}/acme/webapp/issues`);
    await page.getByRole('link', { name: 'New issue' }).click();
    const form = page.getByRole('form', { name: 'New issue' });
    await form.getByLabel('Title').fill('Say hello in the README');
    await form.getByLabel('Description').fill('Newcomers should be greeted.');
    await form.getByRole('button', { name: 'Submit new issue' }).click();
    await page.getByRole('heading', { name: /Say hello in the README/ }).waitFor();
    const issueUrl = page.url();
    const issueNumber = Number(/\/issues\/(\d+)$/.exec(issueUrl)?.[1]);
    expect(issueNumber).toBeGreaterThan(0);

    const comment = page.getByRole('form', { name: 'Add a comment' });
    await comment.getByLabel('Comment').fill('@tandem please add a greeting to the README');
    await comment.getByRole('button', { name: 'Comment' }).click();
    await page.getByText('@tandem please add a greeting to the README').waitFor();

    // The bot answers on the issue once its agent is done (the page is plain HTML: reload).
    await expect
      .poll(
        async () => {
          await page.goto(issueUrl);
          return page.getByText('tandem[bot]').count();
        },
        { timeout: 60_000, interval: 1000 },
      )
      .toBeGreaterThan(0);
    expect(await seriousA11yViolations(page), page.url()).toEqual([]);

    // In Tandem, the agent is bob's (his own agents list has it), subscribed to the issue.
    await page.goto('/agents');
    const agentHref = await page.evaluate(async (number) => {
      const res = await fetch('/api/agents/acme/webapp?rows_per_page=100');
      const body = (await res.json()) as {
        agents: { id: string; sources: Record<string, { number: number | null }[]> }[];
      };
      const agent = body.agents.find((a) =>
        (a.sources['acme/webapp'] ?? []).some((s) => s.number === number),
      );
      return agent ? `/gh/acme/webapp/agent/${agent.id}` : null;
    }, issueNumber);
    expect(agentHref).not.toBeNull();
    await page.goto(agentHref!);
    const feed = page.getByRole('log', { name: 'Conversation' });
    const message = feed.getByTestId('feed-message').filter({ hasText: '@tandem please add a greeting' });
    await message.waitFor();
    const back = message.getByRole('link', { name: /View on the code host/ });
    expect(await back.getAttribute('href')).toContain(`/acme/webapp/issues/${issueNumber}#issuecomment-`);
    // The subscription to the issue shows in the sources panel.
    await page.getByText(`#${issueNumber}`).first().waitFor();
    expect(await seriousA11yViolations(page), page.url()).toEqual([]);
    await context.close();
  });
});
