import { request } from 'node:http';
import { chromium, type Browser, type CDPSession } from 'playwright-core';
import type { Figure } from './report.js';
import { startTarget, type RunningTarget } from './servers.js';
import { median } from './median.js';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** The landing page's JavaScript, gzipped, must fit in this (issue 15). */
export const LANDING_JS_GOAL_BYTES = 150 * 1024;

/** Bytes on the wire for one URL with the given Accept-Encoding (node:http: nothing decodes). */
function wireBytes(
  url: string,
  encoding: string,
): Promise<{ bytes: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ bytes, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Resolves to the page's first-contentful-paint time. A string, not a function: tsx compiles
 * functions with helpers (`__name`) that do not exist in the page.
 */
const FCP_SCRIPT = `new Promise((resolve) => {
  const done = () => {
    const entry = performance.getEntriesByName('first-contentful-paint')[0];
    if (entry) resolve(entry.startTime);
    return Boolean(entry);
  };
  if (!done()) new PerformanceObserver(() => done()).observe({ type: 'paint', buffered: true });
})`;

/**
 * First contentful paint of one fresh visit (a new browser context), in ms. With `from`, the visit
 * arrives from that page (of another site), as a visitor following a link or typing the address
 * in a tab does; without it, the new tab's blank page navigates straight to `url`.
 */
async function firstContentfulPaint(browser: Browser, url: string, from?: string): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    if (from) await page.goto(from, { waitUntil: 'load' });
    await page.goto(url, { waitUntil: 'load' });
    return await page.evaluate<number>(FCP_SCRIPT);
  } finally {
    await context.close();
  }
}

/**
 * Medians of `runs` fresh visits to each URL, taken in turns: a paint takes some 100 ms, so a
 * burst of other work on the machine moves a few samples, and alternating spreads it over both
 * sides instead of landing on one of them.
 */
async function pairedPaints(
  browser: Browser,
  urls: [string, string],
  runs: number,
  from?: string,
): Promise<[number, number]> {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    times[0].push(await firstContentfulPaint(browser, urls[0], from));
    times[1].push(await firstContentfulPaint(browser, urls[1], from));
  }
  return [median(times[0]), median(times[1])];
}

interface Visit {
  scripts: string[];
  /** Requests for static files that reached the server (not served from the browser's cache). */
  networkAssets: string[];
}

/** Navigates and lists the scripts the page ran and the assets it fetched over the network. */
async function visit(cdp: CDPSession, navigate: () => Promise<unknown>): Promise<Visit> {
  const scripts = new Set<string>();
  const responses: { requestId: string; url: string; fromDiskCache: boolean }[] = [];
  // Memory-cache hits still get a responseReceived event; this one tells them apart.
  const cached = new Set<string>();
  const onResponse = (event: {
    requestId: string;
    type: string;
    response: { url: string; fromDiskCache?: boolean };
  }) => {
    if (event.type === 'Script') scripts.add(event.response.url);
    responses.push({
      requestId: event.requestId,
      url: event.response.url,
      fromDiskCache: event.response.fromDiskCache === true,
    });
  };
  const onCached = (event: { requestId: string }) => cached.add(event.requestId);
  cdp.on('Network.responseReceived', onResponse);
  cdp.on('Network.requestServedFromCache', onCached);
  await navigate();
  // Lazily loaded chunks of the page (its route's component) arrive after `load`.
  await new Promise((r) => setTimeout(r, 1500));
  cdp.off('Network.responseReceived', onResponse);
  cdp.off('Network.requestServedFromCache', onCached);
  const networkAssets = responses
    .filter((r) => new URL(r.url).pathname.startsWith('/assets/'))
    .filter((r) => !r.fromDiskCache && !cached.has(r.requestId))
    .map((r) => r.url);
  return { scripts: [...scripts], networkAssets };
}

/**
 * A page of another site than every one of `targets`, served by `server` under another host name:
 * the servers listen on 127.0.0.1, and a site is its scheme and host, not its port. Thrown rather
 * than a silently same-site "other" page when a target is not on 127.0.0.1.
 */
function anotherSite(server: string, targets: readonly string[]): string {
  const other = new URL(server);
  if (other.hostname !== '127.0.0.1') throw new Error(`expected a server on 127.0.0.1, got ${server}`);
  other.hostname = 'localhost';
  for (const target of targets) {
    if (new URL(target).hostname === other.hostname)
      throw new Error(`${target} is on the same site as ${other.href}`);
  }
  return other.href;
}

/**
 * The web figures: landing page JavaScript sent gzipped (vs the 150 KB goal), first contentful
 * paint vs a static page, and what a repeat visit fetches again.
 */
export async function webFigures(options: { runs: number }): Promise<Figure[]> {
  let tandem: RunningTarget | undefined;
  let baseline: RunningTarget | undefined;
  let browser: Browser | undefined;
  try {
    tandem = await startTarget('tandem');
    baseline = await startTarget('baseline');
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });

    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const first = await visit(cdp, () => page.goto(`${tandem!.url}/`, { waitUntil: 'load' }));
    let gzipBytes = 0;
    let plainBytes = 0;
    let brotliBytes = 0;
    let immutable = 0;
    for (const url of first.scripts) {
      const gz = await wireBytes(url, 'gzip');
      gzipBytes += gz.bytes;
      plainBytes += (await wireBytes(url, 'identity')).bytes;
      brotliBytes += (await wireBytes(url, 'br')).bytes;
      if (String(gz.headers['cache-control']).includes('immutable')) immutable += 1;
    }
    const index = await wireBytes(`${tandem.url}/`, 'gzip');
    // A repeat visit: a new navigation in the same browser profile.
    const again = await visit(cdp, () => page.goto(`${tandem!.url}/`, { waitUntil: 'load' }));
    await context.close();

    const urls: [string, string] = [`${baseline.url}/`, `${tandem.url}/`];
    const otherSite = anotherSite(baseline.url, urls);
    // One visit to each first, unmeasured: both servers and the browser past their first request.
    await pairedPaints(browser, urls, 1, otherSite);
    const [staticFcp, landingFcp] = await pairedPaints(browser, urls, options.runs, otherSite);
    // Shown, not judged: a blank new tab navigating straight to the page, where a page that asks
    // for its own browsing context group (COOP) pays for a renderer process that the static page
    // does not (docs/decisions.md "Landing paint: no origin-keyed process hint").
    const [staticBlank, landingBlank] = await pairedPaints(browser, urls, options.runs);

    return [
      {
        name: `landing JS sent gzipped, KB (${first.scripts.length} files)`,
        baseline: null,
        tandem: gzipBytes / 1024,
        detail: `${(plainBytes / 1024).toFixed(0)} KB plain, ${(brotliBytes / 1024).toFixed(0)} KB brotli`,
        goal: `≤ ${LANDING_JS_GOAL_BYTES / 1024} KB`,
        ok: gzipBytes <= LANDING_JS_GOAL_BYTES,
      },
      {
        name: 'landing first contentful paint, ms',
        baseline: staticFcp,
        tandem: landingFcp,
        ratio: landingFcp / staticFcp,
        detail: `arriving from another site's page; from a blank tab: ${staticBlank.toFixed(0)} → ${landingBlank.toFixed(0)} ms (${(landingBlank / staticBlank).toFixed(2)}×)`,
        goal: 'ratio ≤ 2',
        ok: landingFcp / staticFcp <= 2,
      },
      {
        name: 'repeat visit: assets fetched again',
        baseline: null,
        tandem: again.networkAssets.length,
        detail: `${immutable}/${first.scripts.length} scripts immutable, / ${String(index.headers['cache-control'])}`,
        goal: '0, / no-cache',
        ok:
          again.networkAssets.length === 0 &&
          immutable === first.scripts.length &&
          index.headers['cache-control'] === 'no-cache',
      },
    ];
  } finally {
    await browser?.close();
    await baseline?.stop();
    await tandem?.stop();
  }
}
