import { defineConfig } from 'vitest/config';

// Browser flows: one built server for the whole run (global setup), Chromium per file.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['apps/web/e2e/**/*.e2e.ts'],
    globalSetup: ['apps/web/e2e/support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // A page answers within seconds under load, not the 1 s `expect.poll` waits by default (the
    // rows-per-page check failed at 1 s in CI while the server was busy with earlier agents).
    expect: { poll: { timeout: 10_000 } },
  },
});
