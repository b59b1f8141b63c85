import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort, tempDir, until } from './testing/agent-harness.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Process managers and containers signal the process they started: `npm start`. npm runs the
 * script through `sh -c` and may exit without passing the signal on; the server must stop anyway.
 */
describe('npm start', () => {
  it('stops the server when the npm process gets SIGTERM', { timeout: 240_000 }, async () => {
    const [port, codehostPort] = [await freePort(), await freePort()];
    const npm = spawn('npm', ['start'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        CODEHOST_PORT: String(codehostPort),
        STRIPE_LOCAL_PORT: '0',
        TANDEM_DATA_DIR: tempDir('tandem-start-'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await until(
        'the server to start',
        async () => (output.includes(`http://localhost:${port}`) ? true : undefined),
        {
          timeoutMs: 200_000,
        },
      );
      expect(await listening(port)).toBe(true);
      process.kill(npm.pid!, 'SIGTERM');
      await until(
        'the server and the code host to stop',
        async () => ((await listening(port)) || (await listening(codehostPort)) ? undefined : true),
        { timeoutMs: 20_000 },
      );
    } catch (error) {
      throw new Error(`${String(error)}\n--- npm start output ---\n${output}`, { cause: error });
    } finally {
      // Whatever happened, nothing of this test may outlive it.
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // ESRCH: the whole group is gone already.
      }
    }
  });
});
