import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUNSET_NO_NEW_AGENTS, sunsetBanner, sunsetInputNotice, type Sunset } from '@tandem/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { useBrowser } from './support/browser.js';
import { freePort, startTandemServer, testServerEnv, type RunningServer } from './support/server.js';
import { createScriptedAgent, signInAs } from './support/session.js';

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const REFUND_NOTE = 'Unused credits will be refunded to your card.';
const sunset = (lastDay: string): Sunset => ({
  last_day: lastDay,
  shutdown_day: day(30),
  credits_buyable: false,
  refund_note: REFUND_NOTE,
});
const sunsetEnv = (s: Sunset) => ({
  TANDEM_SUNSET_LAST_DAY: s.last_day,
  TANDEM_SUNSET_SHUTDOWN_DAY: s.shutdown_day,
  TANDEM_SUNSET_BUY_CREDITS: 'off',
  TANDEM_SUNSET_REFUND_NOTE: s.refund_note,
});

/**
 * Sunset mode (DESIGN.md §9, platform §1) from an operator's settings: its own server, started
 * before the last day and again, on the same data, after it.
 */
describe('sunset mode', () => {
  const browser = useBrowser();
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-e2e-sunset-'));
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows its banner, then blocks new agents and messages after the last day', async () => {
    const scriptFile = join(dataDir, 'scripted-model.json');
    writeFileSync(scriptFile, JSON.stringify({ scripts: [{ steps: [{ text: 'Noted.' }] }] }));
    const base = await testServerEnv({ port: await freePort(), dataDir, scriptFile });

    const open = sunset(day(1));
    server = await startTandemServer({ ...base, ...sunsetEnv(open) });
    const first = await browser.newPage({ baseUrl: server.url });
    await signInAs(first.page, 'bob');
    const banner = first.page.getByRole('status', { name: 'Shutdown notice' });
    await expect.poll(() => banner.textContent()).toBe(sunsetBanner(open));
    expect(await banner.textContent()).toContain(`New agents can be made until`);
    const agentId = await createScriptedAgent(first.page, 'acme/webapp', 'Before the cut-off');
    await first.context.close();
    await server.stop();

    // The operator's last day has passed: the same deployment, restarted with the new settings.
    const closed = sunset(day(-1));
    server = await startTandemServer({ ...base, ...sunsetEnv(closed) });
    const { page } = await browser.newPage({ baseUrl: server.url });
    await signInAs(page, 'bob');
    await expect
      .poll(() => page.getByRole('status', { name: 'Shutdown notice' }).textContent())
      .toBe(sunsetBanner(closed));
    const form = page.getByRole('form', { name: 'New agent' });
    await form.getByText(SUNSET_NO_NEW_AGENTS).waitFor();
    expect(await form.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The server refuses too, whatever the page does.
    const refused = await page.evaluate(async () => {
      const res = await fetch('/api/agents/create-agent/acme/webapp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tandem-csrf': '1' },
        body: JSON.stringify({ body: 'After the cut-off', model: 'scripted' }),
      });
      return { status: res.status, body: (await res.json()) as { detail?: string } };
    });
    expect(refused).toEqual({ status: 403, body: expect.objectContaining({ detail: SUNSET_NO_NEW_AGENTS }) });

    // An agent from before the cut-off can still be read, not messaged.
    await page.goto(`/gh/acme/webapp/agent/${agentId}`);
    const composer = page.getByRole('form', { name: 'Send a message' });
    await composer.getByText(sunsetInputNotice(closed)).waitFor();
    expect(await composer.getByRole('textbox', { name: 'Message' }).isDisabled()).toBe(true);
    await page.getByText('Before the cut-off').first().waitFor();
  });
});
