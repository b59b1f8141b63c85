/**
 * A server's resident memory once it has idled, for the "flat after N agents" figures
 * (bench/steps.ts). Right after a burst of work V8 still holds its heap's high-water pages; its
 * memory reducer gives them back only after some 20-50 s without activity (measured after 100
 * agents: 321 MB 5 s after they settled, 267 MB 50 s after). Memory before and after agents is only
 * comparable when both are read in that same idle state, so both are read after IDLE_MS.
 */
import { rssMb } from './servers.js';

/** How long the server is left without requests before its memory is read. */
export const IDLE_MS = 60_000;

/** The process's RSS in MB after `idleMs` without requests, and its RSS when the wait began. */
export async function idleRssMb(
  pid: number,
  idleMs = IDLE_MS,
): Promise<{ idle: number; atStart: number } | null> {
  const atStart = await rssMb(pid);
  await new Promise((r) => setTimeout(r, idleMs));
  const idle = await rssMb(pid);
  return atStart === null || idle === null ? null : { idle, atStart };
}
