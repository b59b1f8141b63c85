// `npm run test:e2e [-- files…]`: only the browser tests (apps/web/e2e), after installing and
// building what they need. `npm test` runs them too, after everything else.
import { ensureBuilt, ensureChromium, ensureInstalled, run, warnOldNode } from './lib.mjs';

warnOldNode();
try {
  await ensureInstalled();
  await ensureBuilt();
  ensureChromium();
  await run('npx', ['vitest', 'run', '--config', 'vitest.e2e.config.ts', ...process.argv.slice(2)]);
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(typeof error.code === 'number' && error.code !== 0 ? error.code : 1);
}
