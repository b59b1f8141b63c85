import { defineConfig } from 'vitest/config';

// Tests import workspace packages from their TypeScript sources (the "@tandem/source" export
// condition), so unit and integration tests never need a prior build.
// The rest mirror Vite's default server conditions.
const sourceConditions = ['@tandem/source', 'module', 'node', 'development|production'];

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { conditions: sourceConditions },
        ssr: { resolve: { conditions: sourceConditions } },
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/cli/src/**/*.test.ts',
            // Build scripts of the web app run in Node, not in the browser.
            'apps/web/build/**/*.test.ts',
            // So do the browser tests' helpers.
            'apps/web/e2e/support/**/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'apps/*/vitest.config.ts',
    ],
  },
});
