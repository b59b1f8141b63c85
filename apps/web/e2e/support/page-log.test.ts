import { EventEmitter } from 'node:events';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { recordPageLog } from './page-log.js';

/** A request as the page's events hand it over; `answer` is what response() settles with. */
function request(url: string, answer: Promise<{ status(): number } | null>) {
  return { url: () => url, method: () => 'GET', response: () => answer, failure: () => null };
}

describe('recordPageLog', () => {
  it('logs API calls and their answers, and takes a page closed before an answer calmly', async () => {
    const page = new EventEmitter();
    const dump = recordPageLog(page as unknown as Page);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const ok = request('http://127.0.0.1/api/agents?page=1', Promise.resolve({ status: () => 200 }));
      page.emit('request', ok);
      page.emit('requestfinished', ok);
      page.emit('request', request('http://127.0.0.1/assets/app.js', Promise.resolve(null)));
      // What Playwright does when the test closes the page while an answer is being read.
      const closed = request(
        'http://127.0.0.1/api/agent/latest-timestamp',
        Promise.reject(new Error('request.response: Target page, context or browser has been closed')),
      );
      page.emit('requestfinished', closed);
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
    const text = dump();
    expect(text).toContain('→ GET /api/agents?page=1');
    expect(text).toContain('← 200 /api/agents?page=1');
    expect(text).toContain('← (page closed before its answer was read) /api/agent/latest-timestamp');
    expect(text).not.toContain('/assets/');
  });
});
