import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, tempDir } from './testing/agent-harness.js';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');
// Made here, where tempDir's removal after the file takes effect (a hook added inside a running test
// never ran, and every CI run left a 41 MB data dir per start); each start gets a fresh one inside.
const dataDirs = tempDir('tandem-startup-');

function run(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [main, 'serve'], {
      env: {
        ...process.env,
        LOG_LEVEL: 'silent',
        TANDEM_DATA_DIR: mkdtempSync(join(dataDirs, 'start-')),
        STRIPE_LOCAL_PORT: '0',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

/** What a newcomer reads when Tandem cannot start: the setting to change, not a stack trace. */
describe('start-up errors', () => {
  let busy: Server;
  let busyPort: number;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

  it('names PORT when the server port is taken', { timeout: 60_000 }, async () => {
    const result = await run({
      PORT: String(busyPort),
      HOST: '127.0.0.1',
      CODEHOST_PORT: String(await freePort()),
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `Port ${busyPort} is already in use (PORT). Stop the other process, or start with PORT=<another port> (0 picks a free one).`,
    );
  });

  it('names CODEHOST_PORT when the local code host port is taken', { timeout: 60_000 }, async () => {
    const result = await run({ PORT: String(await freePort()), CODEHOST_PORT: String(busyPort) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Port ${busyPort} is already in use (CODEHOST_PORT)`);
    expect(result.stderr).not.toContain('"level"');
  });

  it('names STRIPE_LOCAL_PORT when the local billing port is taken', { timeout: 60_000 }, async () => {
    const result = await run({
      PORT: String(await freePort()),
      CODEHOST_PORT: String(await freePort()),
      STRIPE_LOCAL_PORT: String(busyPort),
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `Port ${busyPort} is already in use (STRIPE_LOCAL_PORT). Stop the other process, or start with STRIPE_LOCAL_PORT=<another port> (0 picks a free one).`,
    );
  });

  it('names DATABASE_URL when the database cannot be reached', { timeout: 60_000 }, async () => {
    const result = await run({
      PORT: String(await freePort()),
      CODEHOST_PORT: String(await freePort()),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/tandem`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /Cannot use the database at 127\.0\.0\.1:\d+\/tandem \(DATABASE_URL\): nothing is listening there/,
    );
  });
});
