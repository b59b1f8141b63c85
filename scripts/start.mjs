// `npm start`: install if needed, build if stale, then run the server in the foreground.
// Migrations and seeding happen inside the server at start-up.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, ensureInstalled, log, root, warnOldNode } from './lib.mjs';
import { serverEnvAdditions } from './server-env.mjs';

warnOldNode();

// Until the server runs, a signal just ends start-up (a build step already running finishes alone).
const early = (signal) => process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, early);

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
    env: { ...process.env, ...serverEnvAdditions(process.env) },
  },
);
// Forward Ctrl-C / SIGTERM so the server shuts down cleanly; its exit code becomes ours.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.off(signal, early);
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));

// Process managers signal `npm start`, and npm may exit without passing the signal on (through
// `sh -c`). When whoever started us is gone, stop the server rather than leave it holding the ports
// and the data dir.
const parent = process.ppid;
const orphanCheck = setInterval(() => {
  if (process.ppid !== parent) {
    clearInterval(orphanCheck);
    log('the process that started the server is gone; stopping the server…');
    server.kill('SIGTERM');
  }
}, 500);
orphanCheck.unref();
