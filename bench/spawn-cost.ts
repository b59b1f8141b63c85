import { spawn } from 'node:child_process';
import { launch } from '@tandem/process';

/**
 * The median time starting one `/bin/true` blocks its caller's event loop, in ms. libuv starts a
 * process with fork(), whose cost grows with the caller's memory (page tables), and some virtual
 * machines make it much worse: a server of a few hundred MB paid this on every git and sandbox
 * process it started, with every other request waiting (bench/README.md). `via: 'launcher'` times
 * what the server does now: hand the start to its launcher (@tandem/process).
 */
export async function spawnBlockingMs(samples = 21, via: 'spawn' | 'launcher' = 'spawn'): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    const child =
      via === 'spawn'
        ? spawn('/bin/true', { stdio: 'ignore' })
        : launch('/bin/true', [], { stdio: ['ignore', 'ignore', 'ignore'] });
    times.push(performance.now() - started);
    await new Promise((resolve) => child.once('close', resolve));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}
