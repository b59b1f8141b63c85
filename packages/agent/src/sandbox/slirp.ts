import { launch, type StartedProcess } from '@tandem/process';
import type { Readable, Writable } from 'node:stream';
import { findProgram } from './bwrap.js';
import { watchHelper, whenReady } from './helper-process.js';

const READY_TIMEOUT_MS = 10_000;

export function findSlirp(): string | null {
  return findProgram('slirp4netns');
}

/** slirp4netns serving one network namespace; stop() (or this server's death) ends it. */
export interface Slirp {
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * Gives the network namespace of `pid` user-mode networking: a tap0 device (10.0.2.100/24, gateway
 * 10.0.2.2, DNS 10.0.2.3) whose traffic slirp4netns turns into ordinary sockets of this server's
 * uid. `--disable-host-loopback` keeps 10.0.2.2 from reaching the host's 127.0.0.1 services;
 * slirp4netns itself runs in its own sandbox with a seccomp filter because it parses packets the
 * agent writes. It exits when our end of its exit pipe closes, so a crashed server leaves no slirp.
 */
export function attachSlirp(slirp: string, pid: number, direct = false): Promise<Slirp> {
  // Through the launcher (@tandem/process), not a fork of the whole server, unless what it serves
  // was started directly (spawn.ts); the exit pipe's other end is ours either way.
  const child = launch(
    slirp,
    [
      '--configure',
      '--mtu=65520',
      '--disable-host-loopback',
      '--enable-sandbox',
      '--enable-seccomp',
      '--ready-fd=3',
      '--exit-fd=4',
      String(pid),
      'tap0',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin' }, direct },
  );
  const ready = child.stdio[3] as Readable;
  const exitPipe = child.stdio[4] as Writable;
  exitPipe.on('error', () => undefined);
  ready.on('error', () => undefined);
  const { exited, stderr } = watchHelper(child);
  return whenReady(
    child,
    ready,
    {
      timeoutMs: READY_TIMEOUT_MS,
      failure: (reason) => {
        const last = stderr().trim().split('\n').pop();
        return `slirp4netns failed: ${reason}${last ? ` (${last})` : ''}`;
      },
    },
    () => handle(child, exitPipe, exited),
  );
}

function handle(child: StartedProcess, exitPipe: Writable, exited: Promise<void>): Slirp {
  return {
    pid: child.pid as number,
    stop: async () => {
      exitPipe.destroy();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(timer);
    },
  };
}
