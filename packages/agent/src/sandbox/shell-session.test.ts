import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ShellSession, type ShellEvent } from './shell-session.js';
import {
  eventually,
  freePort,
  processesMatching,
  sandboxKindCases,
  tempDir,
  uniqueSleep,
} from './test-support.js';

const { cases } = await sandboxKindCases();

let workspace: string;
let cleanup: () => Promise<void>;
const sessions: ShellSession[] = [];

beforeEach(async () => {
  const temp = await tempDir();
  workspace = join(temp.dir, 'ws');
  await mkdir(workspace);
  cleanup = temp.cleanup;
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.stop()));
  await cleanup();
});

function nextEvent<T extends ShellEvent['type']>(
  session: ShellSession,
  type: T,
  match: (event: Extract<ShellEvent, { type: T }>) => boolean = () => true,
  timeoutMs = 4000,
): Promise<Extract<ShellEvent, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`no ${type} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const unsubscribe = session.onEvent((event) => {
      if (event.type !== type) return;
      const typed = event as Extract<ShellEvent, { type: T }>;
      if (!match(typed)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(typed);
    });
  });
}

describe.each(cases)('ShellSession ($kind)', ({ kind, skip }) => {
  const start = (command: string, extra: Partial<Parameters<typeof ShellSession.start>[0]> = {}) => {
    const session = ShellSession.start({ command, cwd: workspace, workspace, kind, ...extra });
    sessions.push(session);
    return session;
  };

  describe.skipIf(skip !== null)(skip ? `skipped: ${skip}` : 'usable', () => {
    it('echoes stdin through cat and collects output until idle', async () => {
      const session = start('cat');
      expect(session.pid).toBeGreaterThan(0);
      expect(session.running).toBe(true);
      session.write('hello\n');
      expect(await session.waitForOutput({ idleMs: 200, maxMs: 3000 })).toBe('hello\n');
      session.write('again\n');
      expect(await session.waitForOutput({ idleMs: 200, maxMs: 3000 })).toBe('again\n');
      expect(session.readOutput()).toBe('');
    });

    it('streams stdout events and resolves waitForOutput on exit', async () => {
      const session = start('echo first; echo second >&2; exit 3');
      const chunks: string[] = [];
      session.onEvent((event) => {
        if (event.type === 'stdout') chunks.push(event.data);
      });
      const exit = nextEvent(session, 'exit');
      const output = await session.waitForOutput({ idleMs: 3000, maxMs: 4000 });
      expect(output).toBe('first\nsecond\n');
      expect(await exit).toEqual({ type: 'exit', exitCode: 3, signal: null });
      expect(chunks.join('')).toBe('first\nsecond\n');
      expect(session.running).toBe(false);
      expect(session.exitCode).toBe(3);
      expect(() => session.write('x')).toThrow(/exited/);
    });

    it('waitForOutput gives up after maxMs while output keeps coming', async () => {
      const session = start('while true; do echo tick; sleep 0.05; done');
      const started = Date.now();
      const output = await session.waitForOutput({ idleMs: 1000, maxMs: 400 });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(output).toContain('tick\n');
      expect(session.running).toBe(true);
    });

    it('keeps only the newest 1 MiB of unread output', async () => {
      const session = start("head -c 1500000 /dev/zero | tr '\\0' a; echo END");
      await nextEvent(session, 'exit');
      const output = session.readOutput();
      expect(output.length).toBe(1024 * 1024);
      expect(output.endsWith('aEND\n')).toBe(true);
    });

    it('stop() kills the process tree', async () => {
      const sleep = uniqueSleep();
      const session = start(`sleep ${sleep} & sleep ${sleep}; wait`);
      expect(await eventually(async () => (await processesMatching(`sleep ${sleep}`)).length >= 3)).toBe(
        true,
      );
      await session.stop();
      expect(session.running).toBe(false);
      expect(await processesMatching(`sleep ${sleep}`)).toEqual([]);
      await session.stop(); // idempotent
    });

    it('ends after maxLifetimeMs', async () => {
      const session = start(`sleep ${uniqueSleep()}`, { maxLifetimeMs: 200 });
      await nextEvent(session, 'exit', () => true, 3000);
      expect(session.running).toBe(false);
    });

    // Without --share-net the server lives in its own network namespace: a different socket table.
    it.each(kind === 'bubblewrap' ? [true, false] : [true])(
      'reports listening ports (network: %s)',
      async (network) => {
        const port = await freePort();
        const session = start(`node -e "require('http').createServer().listen(${port})"`, { network });
        const opened = await nextEvent(session, 'ports', (event) => event.ports.length > 0);
        expect(opened.ports).toEqual([port]);
        expect(await session.listeningPorts()).toEqual([port]);
        const closed = nextEvent(session, 'ports', (event) => event.ports.length === 0);
        await session.stop();
        await closed;
        expect(await session.listeningPorts()).toEqual([]);
      },
    );
  });
});
