import { describe, expect, it } from 'vitest';
import { isApiPath, isServerPath } from './server-paths.js';

describe('server paths', () => {
  it('tells the API from pages, with or without a query', () => {
    for (const url of [
      '/api',
      '/api?x=1',
      '/api/',
      '/api/health',
      '/api/agent/latest-timestamp?trajectory_id=a',
    ]) {
      expect(isApiPath(url), url).toBe(true);
      expect(isServerPath(url), url).toBe(true);
    }
    for (const url of ['/', '/apis-overview', '/apix?x', '/docs?next=/api/health', '/API/health']) {
      expect(isApiPath(url), url).toBe(false);
      expect(isServerPath(url), url).toBe(false);
    }
  });

  it("counts the server's other paths as never pages, and not as the API", () => {
    for (const url of ['/auth/github/callback?code=1', '/asset/logo', '/user_asset/event/a/0']) {
      expect(isServerPath(url), url).toBe(true);
      expect(isApiPath(url), url).toBe(false);
    }
    for (const url of ['/auth', '/auth?x=/', '/assets/index.js', '/settings?from=/auth/']) {
      expect(isServerPath(url), url).toBe(false);
    }
  });
});
