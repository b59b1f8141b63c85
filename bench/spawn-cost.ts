import { spawn } from 'node:child_process';

/**
 * The median time `spawn()` blocks its caller's event loop for one `/bin/true`, in ms. libuv
 * starts a process with fork(), whose cost grows with the caller's memory (page tables), and some
 * virtual machines make it much worse: a server of a few hundred MB pays this on every git and
 * sandbox process it starts, with every other request waiting (bench/README.md).
 */
export async function spawnBlockingMs(samples = 21): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    const child = spawn('/bin/true', { stdio: 'ignore' });
    times.push(performance.now() - started);
    await new Promise((resolve) => child.once('close', resolve));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}
