import { availableParallelism } from 'node:os';
import { QuietGate } from './quiet-gate.js';

/**
 * At most `limit` pieces of work at once, the rest in arrival order. Sandboxes prepared in the
 * background (run-agent.ts) go through one per process: a hundred clones started together all
 * compete for the same cores and the code host with the model requests and code-host reads the
 * runs are waiting on, and finish no sooner than in turn (measured in bench/steps.ts).
 */
export class Limiter {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

export const backgroundPrepares = new Limiter(Math.max(2, availableParallelism()));

/**
 * A background preparation waits for a quiet event loop before it takes a turn (quiet-gate.ts):
 * a 50 ms window at most half busy, at most 5 s, and not at all once a tool needs the sandbox. A
 * single agent's clone still starts within one window of its model request going out. 100 agents
 * at once (bench/steps.ts, interleaved runs): median 6.8 s without it, 6.1 s with it; a 10 s
 * longest wait was no better (docs/decisions.md).
 */
export const backgroundQuiet = new QuietGate({ busyAbove: 0.5, windowMs: 50, maxWaitMs: 5000 });

/**
 * A new agent's branch check, when its first prompt assumed the branch (prompt-facts.ts), waits for
 * a quiet event loop too, so that a burst of agents' starts sends every model request before the
 * checks: each is a code-host request, and all of them pass in the first quiet window, since none
 * starts processes. At most 5 s, and not at all once the model has answered.
 */
export const confirmationQuiet = new QuietGate({
  busyAbove: 0.5,
  windowMs: 50,
  maxWaitMs: 5000,
  perWindow: Infinity,
});
