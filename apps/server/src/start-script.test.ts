import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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

/** The server process in process group `group` (`main.js serve`). */
function serverPid(group: number): number | undefined {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // The process group is the 5th field of stat, after the parenthesised command name.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (Number(fields[2]) === group && args.some((a) => a.endsWith('main.js')) && args.includes('serve'))
        return Number(pid);
    } catch {
      // The process ended while it was read.
    }
  }
  return undefined;
}

function environmentOf(pid: number): Record<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
}

/** Each thread's id and nice value (the 19th field of its stat). */
function threadsOf(pid: number): { tid: number; nice: number }[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return { tid: Number(tid), nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) };
  });
}

/**
 * Process managers and containers signal the process they started: `npm start`. npm runs the
 * script through `sh -c` and may exit without passing the signal on; the server must stop anyway.
 */
describe('npm start', () => {
  // Made here, where tempDir's removal after the file takes effect (not inside the test).
  const dataDir = tempDir('tandem-start-');
  it('starts a tuned server; SIGTERM to npm stops it', { timeout: 240_000 }, async () => {
    const [port, codehostPort] = [await freePort(), await freePort()];
    const npm = spawn('npm', ['start'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        CODEHOST_PORT: String(codehostPort),
        STRIPE_LOCAL_PORT: '0',
        TANDEM_DATA_DIR: dataDir,
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
      const server = serverPid(npm.pid!);
      expect(server).toBeDefined();
      // One malloc arena keeps the idle server's memory down (docs/decisions.md "One malloc arena").
      expect(environmentOf(server!).MALLOC_ARENA_MAX).toBe('1');
      // V8's four pool threads run 10 nice steps below the rest (docs/decisions.md "V8's helper
      // threads at a lower priority"); the event loop is not among them.
      const threads = threadsOf(server!);
      const own = threads.find((t) => t.tid === server)!.nice;
      expect(threads.filter((t) => t.nice === Math.min(19, own + 10))).toHaveLength(4);
      expect(threads.filter((t) => t.nice !== own && t.nice !== Math.min(19, own + 10))).toEqual([]);
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
