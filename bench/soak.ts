/**
 * Memory over many batches (bench/steps.ts runs it on the many-agents server after its two judged
 * batches): `batches` more batches of agents at once, each followed by a settle (no run and no
 * sandbox preparation left going) and a full garbage collection. What the server keeps reachable
 * after the last one, against what it kept after the first batch, shows whether anything an agent
 * leaves behind accumulates. RSS after each batch, read straight after it settled (no idling), is
 * shown beside it: it holds V8's and the allocator's high-water pages, so it is not judged.
 */
import type { Figure } from './report.js';
import { rssMb, type RunningTarget } from './servers.js';

/** Batches the soak runs after the judged two (BENCH_SOAK_BATCHES; 0 leaves the figure out). */
export const SOAK_BATCHES = Number(process.env.BENCH_SOAK_BATCHES ?? 10);

export async function soakFigure(options: {
  target: RunningTarget;
  /** Agents per batch, and the batches to run. */
  agents: number;
  batches: number;
  /** The heap kept after a full GC once the first batch settled (MB), and the agents so far. */
  heapAfterFirst: number;
  agentsBefore: number;
  /** One batch of `agents` agents at once (steps.ts agentsAtOnce), and how many failed. */
  batch: () => Promise<{ failed: number }>;
  settle: () => Promise<void>;
  retainedHeapMb: () => Promise<number>;
}): Promise<Figure> {
  const { target, agents, batches } = options;
  const heaps: number[] = [];
  const rss: number[] = [];
  let failed = 0;
  const started = performance.now();
  for (let i = 0; i < batches; i++) {
    failed += (await options.batch()).failed;
    await options.settle();
    heaps.push(await options.retainedHeapMb());
    rss.push((await rssMb(target.pid)) ?? 0);
  }
  const last = heaps.at(-1)!;
  const total = options.agentsBefore + agents * batches;
  const seconds = Math.round((performance.now() - started) / 1000);
  return {
    name: `server heap kept after ${total} agents, MB`,
    baseline: options.heapAfterFirst,
    tandem: last,
    ratio: last / options.heapAfterFirst,
    detail: `baseline: after the first ${agents}; ${batches} more batches in ${seconds} s, heap after each ${heaps.join(', ')} MB; RSS as each settled ${rss[0]} → ${rss.at(-1)} MB${failed ? `; ${failed} failed` : ''}`,
    goal: 'flat: ≤ 1.1× after the first',
    ok: failed === 0 && last / options.heapAfterFirst <= 1.1,
  };
}
