import type { StartedProcess } from '@tandem/process';
import type { Readable } from 'node:stream';

/**
 * The bookkeeping every sandbox helper process needs (the namespace holder, slirp4netns, the port
 * bridge): when it has exited, and the end of what it wrote to stderr for error messages.
 */
export function watchHelper(child: StartedProcess): { exited: Promise<void>; stderr: () => string } {
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  let tail = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (tail = (tail + d).slice(-2000)));
  return { exited, stderr: () => tail };
}

/**
 * Resolves with `make()` once the helper writes to `ready`; rejects, killing it, if it errors, exits
 * or stays silent for `timeoutMs`. `failure` turns the reason into the error message.
 */
export function whenReady<T>(
  child: StartedProcess,
  ready: Readable,
  options: { timeoutMs: number; failure: (reason: string) => string },
  make: () => T,
): Promise<T> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (reason: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(options.failure(reason)));
    };
    const timer = setTimeout(() => fail('not ready in time'), options.timeoutMs);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? String(code)})`));
    ready.once('data', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(make());
    });
  });
}
