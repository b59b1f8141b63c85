import { WarmPool } from '../sandbox/index.js';
import type { RuntimeLogger } from './runtime-deps.js';
import { disposeSandbox, WARM_MAX, WARM_TTL_MS, type WarmSandbox } from './warm-sandbox.js';

/**
 * A runner's sandboxes between runs: warm ones (kept WARM_TTL_MS, at most `max` of them, the one
 * shelved longest ago ended first), and ones whose run ended before they were ready (a model that
 * answered without tools while the clone went on). Those are kept warm when they are ready, or
 * logged when their preparation failed; the agent's next run waits for them first, so two
 * preparations never share a workspace. `stop()` waits for all of them and
 * disposes everything, so no sandbox process outlives the runner.
 */
export class SandboxShelf {
  private readonly pool: WarmPool<WarmSandbox>;
  /** Each agent's preparation left going, and how to start it if held for a quiet server. */
  private readonly preparing = new Map<string, { settled: Promise<void>; hurry?: () => void }>();
  private readonly disposing = new Set<Promise<void>>();
  private stopped = false;
  private readonly closing = new AbortController();
  /** Aborted when the runner stops: preparations not begun yet are not begun then. */
  readonly closed: AbortSignal = this.closing.signal;

  constructor(
    private readonly logger: RuntimeLogger,
    options: { ttlMs?: number; max?: number } = {},
  ) {
    this.pool = new WarmPool<WarmSandbox>({
      ttlMs: options.ttlMs ?? WARM_TTL_MS,
      maxSize: options.max ?? WARM_MAX,
      dispose: (_key, sandbox) => disposeSandbox(sandbox),
    });
  }

  /** The agent's warm sandbox, once any preparation its last run left going has settled. */
  async take(agentId: string): Promise<WarmSandbox | undefined> {
    // The next run needs it now: a preparation waiting for a quiet server waits no longer.
    const preparing = this.preparing.get(agentId);
    preparing?.hurry?.();
    await preparing?.settled;
    return this.pool.take(agentId);
  }

  /** Resolves once no sandbox (of the agent, or of any) is still being prepared after its run. */
  async settled(agentId?: string): Promise<void> {
    for (;;) {
      const pending = agentId ? [this.preparing.get(agentId)] : [...this.preparing.values()];
      const live = pending.flatMap((p) => (p ? [p.settled] : []));
      if (!live.length) return;
      await Promise.all(live);
    }
  }

  keep(agentId: string, sandbox: WarmSandbox | Promise<WarmSandbox>, hurry?: () => void): void {
    if (!(sandbox instanceof Promise)) return this.shelve(agentId, sandbox);
    const settled = sandbox
      .then(
        (ready) => this.shelve(agentId, ready),
        (error: unknown) =>
          // Nobody needed it: the next run prepares again and reports what fails then.
          this.logger.warn({ err: error, agentId }, 'preparing a sandbox failed after its run ended'),
      )
      .finally(() => {
        if (this.preparing.get(agentId)?.settled === settled) this.preparing.delete(agentId);
      });
    this.preparing.set(agentId, { settled, hurry });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.closing.abort();
    await Promise.all([...this.preparing.values()].map((p) => p.settled));
    await Promise.all(this.disposing);
    await this.pool.disposeAll();
  }

  private shelve(agentId: string, sandbox: WarmSandbox): void {
    if (!this.stopped) return this.pool.release(agentId, sandbox);
    const disposal = disposeSandbox(sandbox)
      .catch((error: unknown) => this.logger.warn({ err: error, agentId }, 'disposing a sandbox failed'))
      .finally(() => this.disposing.delete(disposal));
    this.disposing.add(disposal);
  }
}
