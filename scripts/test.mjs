// `npm test`: everything, in order of cheapness: lint, typecheck, unit + integration, browser.
// Ends with one plain "N passed, N failed" line summing every vitest run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, ensureChromium, ensureInstalled, hasCommand, log, run, warnOldNode } from './lib.mjs';

warnOldNode();

const reports = mkdtempSync(join(tmpdir(), 'tandem-test-'));

/**
 * bubblewrap and slirp4netns: the sandbox escape tests run agents' commands in a real sandbox with
 * its own network. Installed like chromium when we can; otherwise those tests skip locally (and
 * fail in CI, where skipping would hide an open sandbox).
 */
function ensureSandboxTools() {
  const missing = [
    ['bwrap', 'bubblewrap'],
    ['slirp4netns', 'slirp4netns'],
  ].filter(([command]) => !hasCommand(command));
  if (missing.length === 0) return;
  const packages = missing.map(([, name]) => name);
  if (process.getuid?.() === 0 && hasCommand('apt-get')) {
    log(`installing ${packages.join(' and ')} for the sandbox tests…`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env });
    if (missing.every(([command]) => hasCommand(command))) return;
  }
  log(
    `${packages.join(' and ')} missing (sudo apt-get install ${packages.join(' ')}): sandbox escape tests will skip`,
  );
}

function counts(file) {
  if (!existsSync(file)) return { passed: 0, failed: 0, skipped: 0 };
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0),
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
}

const vitestReporters = (name) => [
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${join(reports, `${name}.json`)}`,
];

let failure;
try {
  await ensureInstalled();
  log('lint (eslint + prettier)…');
  await run('npm', ['run', 'lint', '--silent']);
  log('typecheck…');
  await run('npx', ['tsc', '-b']);
  await run('npm', ['run', 'typecheck', '-w', '@tandem/web', '--silent']);
  await ensureBuilt();
  ensureSandboxTools();
  log('unit and integration tests…');
  await run('npx', ['vitest', 'run', ...vitestReporters('unit')]);
  ensureChromium();
  log('browser tests…');
  await run('npx', ['vitest', 'run', '--config', 'vitest.e2e.config.ts', ...vitestReporters('e2e')]);
} catch (error) {
  failure = error;
}

const total = ['unit', 'e2e']
  .map((name) => counts(join(reports, `${name}.json`)))
  .reduce((a, b) => ({
    passed: a.passed + b.passed,
    failed: a.failed + b.failed,
    skipped: a.skipped + b.skipped,
  }));
rmSync(reports, { recursive: true, force: true });

if (failure) {
  process.stderr.write(`\n${failure.message}\n`);
  process.stdout.write(`${total.passed} passed, ${Math.max(total.failed, 1)} failed\n`);
  process.exit(typeof failure.code === 'number' && failure.code !== 0 ? failure.code : 1);
}
process.stdout.write(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`);
