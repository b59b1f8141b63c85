// `npm start`: install if needed, build if stale, then run the server in the foreground.
// Migrations and seeding happen inside the server at start-up.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, ensureInstalled, log, root } from './lib.mjs';

try {
  await ensureInstalled();
  await ensureBuilt();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(typeof error.code === 'number' ? error.code : 1);
}

log('starting the server…');
const server = spawn(
  process.execPath,
  [join(root, 'apps/server/dist/main.js'), 'serve', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
// Forward Ctrl-C / SIGTERM so the server shuts down cleanly; its exit code becomes ours.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
