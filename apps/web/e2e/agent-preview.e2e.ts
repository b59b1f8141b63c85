import { describe, expect, inject, it } from 'vitest';
import { useBrowser } from './support/browser.js';
import { signInAs, createScriptedAgent } from './support/session.js';

/** Other browser tests may keep the server's agent slots busy: generous waits for the agent. */
const AGENT_WAIT = { timeout: 90_000 };
const TEST_LIMIT = 150_000;

describe('previews of the ports an agent serves', () => {
  const browser = useBrowser();

  it(
    "opens 'Port {n}' by itself and shows the agent's app from its own origin: back, rename, screenshot, ports menu",
    async () => {
      const port = inject('previewPort');
      const serverPort = new URL(inject('baseUrl')).port;
      const { page } = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await signInAs(page, 'bob');
      const agentId = await createScriptedAgent(page, 'acme/webapp', 'Please serve a preview of the app');
      await page.goto(`/gh/acme/webapp/agent/${agentId}`);

      // The new port opens its tab without a click, and the frame signs itself in.
      const tabs = page.getByRole('tablist', { name: 'Workspace tabs' });
      await tabs.getByRole('tab', { name: `Port ${port}` }).waitFor(AGENT_WAIT);
      const frameElement = page.locator(`iframe[title="Preview of port ${port}"]`);
      const frame = page.frameLocator(`iframe[title="Preview of port ${port}"]`);
      await frame.getByRole('heading', { name: 'Hello from the agent app' }).waitFor();
      const address = page.getByLabel('Preview address');
      const subdomain = await address.inputValue();
      expect(subdomain).toMatch(new RegExp(`^webapp-\\d+-${port}$`));
      // Its own origin: never the product's, where the viewer's session cookie lives.
      expect(await frameElement.getAttribute('src')).toBe(`http://${subdomain}.localhost:${serverPort}/`);

      // The frame reports where it is; Back sends NAVIGATE_BACK.
      await frame.getByRole('link', { name: 'Second page' }).click();
      await frame.getByRole('heading', { name: 'The second page' }).waitFor();
      await expect.poll(() => page.getByLabel('Preview path').textContent()).toBe('/second');
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await frame.getByRole('heading', { name: 'Hello from the agent app' }).waitFor();

      // Renaming normalises the name and moves the frame to the new origin.
      await address.fill('My Preview');
      await address.press('Enter');
      await expect.poll(() => address.inputValue(), { timeout: 10_000 }).toBe('my-preview');
      await expect
        .poll(() => frameElement.getAttribute('src'), { timeout: 10_000 })
        .toBe(`http://my-preview.localhost:${serverPort}/`);
      await frame.getByRole('heading', { name: 'Hello from the agent app' }).waitFor();

      // SCREENSHOT_REQUEST → SCREENSHOT_RESPONSE: the picture joins the unsent message.
      await page.getByRole('button', { name: 'Screenshot to message' }).click();
      await page.getByText('Screenshot added to your message.').waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: `port-${port}.png` }).waitFor();

      // Closed, it comes back from the ports menu.
      await page.getByRole('button', { name: `Close Port ${port}` }).click();
      await page.getByRole('button', { name: 'Ports (1)' }).click();
      await page.getByRole('menuitem', { name: `Port ${port}` }).click();
      await frame.getByRole('heading', { name: 'Hello from the agent app' }).waitFor();

      // Another agent on the same route gets its own workspace, not this one's tabs.
      const otherId = await createScriptedAgent(page, 'acme/webapp', 'Please look around');
      await page.evaluate((id) => {
        history.pushState(null, '', `/gh/acme/webapp/agent/${id}`);
        dispatchEvent(new PopStateEvent('popstate'));
      }, otherId);
      await page.getByRole('log', { name: 'Conversation' }).getByText('Please look around').waitFor();
      expect(await page.getByRole('tablist', { name: 'Workspace tabs' }).count()).toBe(0);

      // Outside the workspace the preview origin has no cookie and shows no content.
      const stranger = await browser.newPage();
      await stranger.page.goto(`http://my-preview.localhost:${serverPort}/`);
      await stranger.page.getByText('Open this preview from the agent in Tandem.').waitFor();
      expect(await stranger.page.content()).not.toContain('Hello from the agent app');
    },
    TEST_LIMIT,
  );
});
