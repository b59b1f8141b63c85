import { availableParallelism } from 'node:os';

/**
 * At most `limit` pieces of work at once, the rest in arrival order. Sandboxes prepared in the
 * background (run-agent.ts) go through one per process: a hundred clones started together all
 * compete for the same cores and the code host with the model requests and code-host reads the
 * runs are waiting on, and finish no sooner than in turn (measured in bench/steps.ts).
 */
export class Limiter {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly limit: number) {}

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
