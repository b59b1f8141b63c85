import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetLeadForTests } from '../tracking/lead';
import type { DemoDialogHandle } from './demo-dialog-mount';
import { startLanding } from './static-landing';

const LANDING_HTML = readFileSync(join(__dirname, '../../landing.html'), 'utf8');
const body = /<body>([\s\S]*)<\/body>/.exec(LANDING_HTML)![1]!;

/**
 * landing.html's markup at `url`, as the browser has it before the script runs: the server marks
 * <html> with the theme cookie's choice, and leaves it unmarked without one.
 */
function openLanding(url: string, theme?: 'light' | 'dark') {
  window.history.replaceState(null, '', url);
  document.body.innerHTML = body;
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

const themeCookie = () => /(?:^|;\s*)theme=([^;]*)/.exec(document.cookie)?.[1];

const main = () => document.querySelector('main')!;
const labels = (root: ParentNode) =>
  [...root.querySelectorAll('a, button')].map((el) => el.textContent?.trim());

describe('the landing page without the SPA (landing.html + static-landing.ts)', () => {
  let stop: (() => void) | undefined;
  let fetchMock: ReturnType<typeof vi.fn>;
  let sendBeacon: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    document.cookie = 'theme=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT';
    resetLeadForTests();
    fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify({ lead_id: 'lead-1' }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    sendBeacon = vi.fn(() => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: sendBeacon, configurable: true });
  });
  afterEach(() => {
    stop?.();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows only the twobutton variant’s links, with login first', () => {
    openLanding('/?landingVariant=twobutton');
    stop = startLanding();
    expect(labels(main())).toEqual(['New Repo', 'Existing Repo']);
    const hrefs = [...main().querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['/login?returnUrl=%2Fgh%3FopenCreateRepo%3Dtrue', '/login?returnUrl=%2Fgh']);
    expect(localStorage.getItem('landingVariant')).toBe('twobutton');
  });

  it('shows login and demo in loginrequest, and the header login comes back here', () => {
    openLanding('/landing?landingVariant=loginrequest');
    stop = startLanding();
    expect(labels(main())).toEqual(['Login with Github', 'Request a Demo']);
    expect(document.getElementById('header-login')?.getAttribute('href')).toBe(
      '/login?returnUrl=%2Flanding%3FlandingVariant%3Dloginrequest',
    );
  });

  it('warns about an invalid variant and uses the remembered one', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    localStorage.setItem('landingVariant', 'loginrequest');
    openLanding('/?landingVariant=rainbow');
    stop = startLanding();
    expect(warn).toHaveBeenCalledWith('Ignoring invalid landingVariant "rainbow"');
    expect(labels(main())).toEqual(['Login with Github', 'Request a Demo']);
  });

  it('toggles the theme by button and Alt+T, and stores it', () => {
    openLanding('/');
    stop = startLanding();
    document.getElementById('theme-toggle')!.click();
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    window.dispatchEvent(new KeyboardEvent('keydown', { altKey: true, code: 'KeyT', key: 't' }));
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(localStorage.getItem('theme')).toBe('light');
    // The cookie follows, so the server sends the next visit's page already in it.
    expect(themeCookie()).toBe('light');
  });

  it('applies a choice stored before the theme cookie existed, and mirrors it into the cookie', () => {
    localStorage.setItem('theme', 'dark');
    openLanding('/');
    stop = startLanding();
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(themeCookie()).toBe('dark');
  });

  it('keeps the system theme when nothing is stored, and writes no cookie for it', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(prefers-color-scheme: dark)' }));
    openLanding('/');
    stop = startLanding();
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(themeCookie()).toBeUndefined();
    document.getElementById('theme-toggle')!.click();
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(themeCookie()).toBe('light');
  });

  it('loads the demo dialog on the first Request a Demo only, in the current theme', async () => {
    const dialog: DemoDialogHandle = { open: vi.fn(), setMode: vi.fn() };
    const mountDemoDialog = vi.fn(() => dialog);
    const loadDemo = vi.fn(async () => ({ mountDemoDialog }));
    openLanding('/?landingVariant=loginrequest');
    stop = startLanding({ loadDemo });
    expect(loadDemo).not.toHaveBeenCalled();
    const button = document.getElementById('request-demo')!;
    button.click();
    await vi.waitFor(() => expect(dialog.open).toHaveBeenCalledTimes(1));
    expect(mountDemoDialog).toHaveBeenCalledWith(document.getElementById('demo-dialog'), 'light');
    button.click();
    await vi.waitFor(() => expect(dialog.open).toHaveBeenCalledTimes(2));
    expect(loadDemo).toHaveBeenCalledTimes(1);
    document.getElementById('theme-toggle')!.click();
    await vi.waitFor(() => expect(dialog.setMode).toHaveBeenCalledWith('dark'));
  });

  it('records the visit with the campaign, and hands it over when a link of ours is followed', async () => {
    openLanding('/?landingVariant=twobutton&utm_source=newsletter&utm_campaign=launch');
    stop = startLanding();
    await vi.waitFor(() => expect(localStorage.getItem('lead_id')).toBe('lead-1'));
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/track-visit');
    expect(JSON.parse(String(init.body)).lead_data).toMatchObject({
      utm_source: 'newsletter',
      utm_campaign: 'launch',
      landing_variant: 'twobutton',
    });
    const link = main().querySelector('a')!;
    link.addEventListener('click', (event) => event.preventDefault());
    link.click();
    expect(sessionStorage.getItem('visitHandoff')).not.toBeNull();

    // Leaving the page sends its page view in one batch.
    stop?.();
    stop = undefined;
    const [beaconUrl, beacon] = sendBeacon.mock.calls[0] as [string, Blob];
    expect(beaconUrl).toBe('/api/track-session');
    const batch = JSON.parse(await beacon.text()) as { lead_id: string; events: string };
    expect(batch.lead_id).toBe('lead-1');
    expect(JSON.parse(batch.events)).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'page_view', data: { path: '/' } })]),
    );
  });
});
