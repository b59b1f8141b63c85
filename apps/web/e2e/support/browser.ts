import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps dialling out on this closed network.
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

export interface BrowserHarness {
  readonly baseUrl: string;
  /** A fresh context (cookies, storage) and page; closed with the browser at the end of the file. */
  newPage(options?: {
    viewport?: { width: number; height: number };
    /** Another server than the shared one (a test that starts its own, e.g. sunset mode's). */
    baseUrl?: string;
  }): Promise<{ context: BrowserContext; page: Page }>;
}

/** Launches Debian's Chromium once per test file (cold launch ~3 s) and hands out fresh contexts. */
export function useBrowser(): BrowserHarness {
  let browser: Browser | undefined;
  const baseUrl = inject('baseUrl');
  beforeAll(async () => {
    // playwright-core gives every launch its own throwaway profile directory.
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    baseUrl,
    async newPage(options) {
      if (!browser) throw new Error('browser not launched yet');
      const context = await browser.newContext({
        baseURL: options?.baseUrl ?? baseUrl,
        viewport: options?.viewport ?? null,
      });
      const page = await context.newPage();
      return { context, page };
    },
  };
}
