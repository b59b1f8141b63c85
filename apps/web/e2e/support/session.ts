import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Signs in through the local code host's sign-in page and waits for the agents list. */
export async function signInAs(page: Page, login: string): Promise<void> {
  await page.goto('/login');
  await page.getByRole('main').getByRole('link', { name: 'Login with Github' }).click();
  await page.getByRole('button', { name: `Sign in as ${login}` }).click();
  await page.waitForURL(/\/agents$/);
}

/**
 * Creates an agent on the scripted model through the API, from the signed-in page (the new-agent
 * form has its own test), and returns its id.
 */
export async function createScriptedAgent(page: Page, repo: string, body: string): Promise<string> {
  return page.evaluate(
    async ({ repo, body }) => {
      const res = await fetch(`/api/agents/create-agent/${repo}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tandem-csrf': '1' },
        body: JSON.stringify({ body, model: 'scripted' }),
      });
      if (!res.ok) throw new Error(`create-agent answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { agent_id: string }).agent_id;
    },
    { repo, body },
  );
}

/** Waits until the agent's run has ended (status 'paused'): its feed is then complete. */
export async function waitUntilPaused(page: Page, agentId: string, timeout = 45_000): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async (id) => {
          const res = await fetch(`/api/agent/metadata?trajectory_id=${id}`);
          return ((await res.json()) as { status: string }).status;
        }, agentId),
      { timeout, interval: 500 },
    )
    .toBe('paused');
}

/**
 * Gives an installation at least `atLeast` credits with a product admin's gift, from the signed-in
 * admin's page. Browser tests share one server: an earlier test may have spent (even overspent)
 * the installation's credits.
 */
export async function topUpCredits(page: Page, installationId: number, atLeast = 1000): Promise<void> {
  await page.evaluate(
    async ({ installationId, atLeast }) => {
      const remaining = await fetch(`/api/billing/credits-remaining?installation_id=${installationId}`);
      const { credits } = (await remaining.json()) as { credits: number };
      if (credits >= atLeast) return;
      const res = await fetch('/api/billing/admin/gift-credits', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tandem-csrf': '1' },
        body: JSON.stringify({
          installation_id: installationId,
          credits: Math.ceil(atLeast - credits),
          description: 'Browser test top-up',
        }),
      });
      if (!res.ok) throw new Error(`gift-credits answered ${res.status}: ${await res.text()}`);
    },
    { installationId, atLeast },
  );
}
