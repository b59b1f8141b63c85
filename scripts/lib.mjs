// Helpers shared by the start, test and CI scripts. Plain Node (no dependencies): these run
// before `npm install` has happened on a fresh clone.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyDependencyPatches } from './patch-dependencies.mjs';

export const root = dirname(dirname(fileURLToPath(import.meta.url)));

export function log(message) {
  process.stdout.write(`\x1b[36m[tandem]\x1b[0m ${message}\n`);
}

/** Node 20 reached end of life in April 2026; it still runs here, untested and unsupported. */
export function warnOldNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 22)
    log(`Node ${process.version} is end of life: Tandem supports Node 22 and 24 (LTS). Please upgrade.`);
}

/** Runs a command in the repo root, inheriting stdio; rejects with its exit code on failure. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(Object.assign(new Error(`${command} ${args.join(' ')} failed (${signal ?? code})`), { code }));
    });
  });
}

const stampPath = join(root, 'node_modules', '.tandem-install-stamp');

function lockHash() {
  return createHash('sha256')
    .update(readFileSync(join(root, 'package-lock.json')))
    .digest('hex');
}

/** `npm ci` when node_modules is missing or was installed from another package-lock.json. */
export async function ensureInstalled() {
  if (!existsSync(stampPath) || readFileSync(stampPath, 'utf8') !== lockHash()) {
    log('installing dependencies (npm ci)…');
    try {
      await run('npm', ['ci', '--no-audit', '--no-fund']);
    } catch (error) {
      // No `npm install` fallback: it would rewrite the lock file and hide a lock that cannot install
      // as committed (e.g. a platform's optional package missing from it). Fix the lock instead.
      throw Object.assign(
        new Error(
          `npm ci failed: ${error.message}. If it says the lock file is out of sync, run ` +
            '`npm install --package-lock-only` and commit package-lock.json.',
        ),
        { code: error.code },
      );
    }
    writeFileSync(stampPath, lockHash());
  }
  // npm ci's postinstall applies them; this also covers a node_modules installed before a patch
  // existed, or with install scripts turned off. Nothing is rewritten when they are in place.
  applyDependencyPatches(root);
}

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** Compiles the server packages (incremental) and rebuilds the web app when its sources changed. */
export async function ensureBuilt() {
  log('compiling TypeScript…');
  await run('npx', ['tsc', '-b']);
  const webDist = join(root, 'apps/web/dist/index.html');
  const sources = Math.max(
    newestMtime(join(root, 'apps/web/src')),
    newestMtime(join(root, 'apps/web/index.html')),
    newestMtime(join(root, 'apps/web/vite.config.ts')),
    newestMtime(join(root, 'packages/shared/src')),
    newestMtime(join(root, 'package-lock.json')),
  );
  if (!existsSync(webDist) || statSync(webDist).mtimeMs < sources) {
    log('building the web app…');
    await run('npm', ['run', 'build', '-w', '@tandem/web']);
  }
}

export function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's chromium for the browser tests: installed when missing and root, never downloaded. */
export function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && hasCommand('apt-get')) {
    log("installing Debian's chromium for the browser tests…");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const install = spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
    if (install.status === 0 && existsSync(CHROMIUM)) return;
  }
  throw new Error(
    `Chromium not found at ${CHROMIUM}. Install Debian's package (sudo apt-get install chromium) ` +
      'or set CHROMIUM_PATH. Browser tests never download a browser.',
  );
}
