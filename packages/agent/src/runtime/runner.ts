import { agents } from '@tandem/db';
import { and, eq, inArray } from 'drizzle-orm';
import { AgentRun, SHUTDOWN, USER_INTERRUPT } from './run-agent.js';
import type { RuntimeDeps } from './runtime-deps.js';
import { clearInterruptIfIdle, clearStaleInterrupt } from './asleep.js';
import { endOrphanedShells } from './ended-shells.js';
import { cancelWait, waitingAgents } from './wait.js';
import { SandboxShelf } from './sandbox-shelf.js';
import { prefetchInstructions, type InstructionsSource } from './instruction-reads.js';
import { ownerAndName } from './agent-row.js';

/** Shells live at most 2 hours: older shell items were ended (or are ended) anyway. */
const SHELL_SCAN_MS = 3 * 60 * 60 * 1000;

/** What the creator of a new agent knows that its first run would otherwise have to look up. */
export interface NewAgentStart {
  repo: InstructionsSource;
  /** The branch its workspace is made from (the agent's choice, else the repository's default). */
  baseBranch: string;
}

/** A new agent's start from its repository row and the base branch it was given, if any. */
export function newAgentStart(
  repo: { installationId: number; fullName: string; defaultBranch: string },
  baseBranch: string | null | undefined,
): NewAgentStart {
  // Named as a run names its repository (agent-row.ts): the two reads must agree to be shared.
  const { owner, name } = ownerAndName(repo.fullName);
  return {
    repo: { installationId: repo.installationId, fullName: repo.fullName, owner, name },
    baseBranch: baseBranch ?? repo.defaultBranch,
  };
}

/**
 * Starts what a new agent's first prompt reads from the code host (instruction-reads.ts), for a run
 * in this process. Only a head start: the run reads for itself when this did not happen or failed.
 */
export function startNewAgentReads(deps: RuntimeDeps, agentId: string, created: NewAgentStart): void {
  try {
    const octokit = deps.codeHost.installationOctokit(created.repo.installationId);
    prefetchInstructions(agentId, octokit, created.repo, created.baseBranch);
  } catch (error) {
    deps.logger.warn({ err: error, agentId }, 'could not start reading instructions early');
  }
}

/**
 * Runs agents: one run per agent at a time, queued runs picked up again after a restart. The
 * embedded runner does this in process; `tandem worker` processes do it against one Postgres.
 */
export interface AgentRunner {
  /**
   * Asks for a run (a new message, a webhook, a resume). Runs already going pick the news up. For an
   * agent just created, `created` lets the runner start its first prompt's reads at once.
   */
  enqueue(agentId: string, created?: NewAgentStart): void;
  /** Stops the agent's run at its next safe point (the model call and commands are aborted). */
  interrupt(agentId: string): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves once the agent (or, without one, every agent) has no run due or going (tests, tools). */
  idle(agentId?: string): Promise<void>;
}

interface Slot {
  controller: AbortController;
  again: boolean;
  done: Promise<void>;
}

export class EmbeddedRunner implements AgentRunner {
  private readonly slots = new Map<string, Slot>();
  /** Waiting agents' wake timers (one per agent; a newer wait replaces it). */
  private readonly wakeTimers = new Map<string, NodeJS.Timeout>();
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  private stopped = false;
  private readonly shelf: SandboxShelf;

  constructor(
    private readonly deps: RuntimeDeps,
    private readonly options: { concurrency?: number; warmTtlMs?: number; warmMax?: number } = {},
  ) {
    this.shelf = new SandboxShelf(deps.logger, { ttlMs: options.warmTtlMs, max: options.warmMax });
  }

  /** Agents that were queued or running when the process stopped run again. */
  async start(): Promise<void> {
    // This process owned every sandbox, and they all died with the previous one.
    await endOrphanedShells(this.deps.db, { since: new Date(Date.now() - SHELL_SCAN_MS) });
    const unfinished = await this.deps.db
      .select({ id: agents.id })
      .from(agents)
      .where(and(inArray(agents.status, ['pending', 'open']), eq(agents.archived, false)));
    for (const { id } of unfinished) this.enqueue(id);
    for (const { id, wakeAt } of await waitingAgents(this.deps.db)) this.wakeAt(id, wakeAt);
  }

  /** Asks for the agent's run when its wait is over (the run finds out whether it still waits). */
  private wakeAt(agentId: string, at: Date): void {
    if (this.stopped) return;
    clearTimeout(this.wakeTimers.get(agentId));
    // setTimeout holds 2^31 - 1 ms at most; a longer wait re-arms when this one fires.
    const delay = Math.min(Math.max(0, at.getTime() - Date.now()), 2 ** 31 - 1);
    const timer = setTimeout(() => {
      this.wakeTimers.delete(agentId);
      this.enqueue(agentId);
    }, delay);
    timer.unref();
    this.wakeTimers.set(agentId, timer);
  }

  enqueue(agentId: string, created?: NewAgentStart): void {
    if (this.stopped) return;
    const slot = this.slots.get(agentId);
    if (slot) {
      slot.again = true;
      return;
    }
    if (created) startNewAgentReads(this.deps, agentId, created);
    const controller = new AbortController();
    const fresh: Slot = { controller, again: false, done: Promise.resolve() };
    fresh.done = this.drive(agentId, fresh).finally(() => this.slots.delete(agentId));
    this.slots.set(agentId, fresh);
  }

  async interrupt(agentId: string): Promise<void> {
    await this.deps.db.update(agents).set({ interruptRequested: true }).where(eq(agents.id, agentId));
    const slot = this.slots.get(agentId);
    if (slot) {
      slot.again = false;
      slot.controller.abort(USER_INTERRUPT);
      // A run past its last look may already have set the agent idle; one still going clears it
      // as it ends.
      await clearInterruptIfIdle(this.deps.db, agentId);
    } else {
      // The embedded runner is the only runner: with nothing running there is nothing to stop,
      // unless the agent waits, which stopping ends.
      await clearStaleInterrupt(this.deps.db, agentId);
      if (await cancelWait(this.deps.db, agentId)) {
        clearTimeout(this.wakeTimers.get(agentId));
        this.wakeTimers.delete(agentId);
      }
    }
  }

  /** Resolves when the agent has no run going (tests and shutdown). */
  async idle(agentId?: string): Promise<void> {
    for (;;) {
      const pending = agentId ? [this.slots.get(agentId)] : [...this.slots.values()];
      const live = pending.filter((s): s is Slot => s !== undefined);
      // A run may end before its sandbox is ready: idle also means that sandbox is warm (or failed).
      if (!live.length) return this.shelf.settled(agentId);
      await Promise.all(live.map((s) => s.done));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.wakeTimers.values()) clearTimeout(timer);
    this.wakeTimers.clear();
    for (const slot of this.slots.values()) slot.controller.abort(SHUTDOWN);
    await Promise.all([...this.slots.values()].map((s) => s.done));
    await this.shelf.stop();
  }

  private async acquire(): Promise<void> {
    const limit = this.options.concurrency ?? 4;
    if (this.running < limit) {
      this.running += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }

  private async drive(agentId: string, slot: Slot): Promise<void> {
    await this.acquire();
    try {
      do {
        slot.again = false;
        if (this.stopped) return;
        const run = new AgentRun(this.deps, agentId, slot.controller.signal, {
          take: () => this.shelf.take(agentId),
          keep: (sandbox, hurry) => this.shelf.keep(agentId, sandbox, hurry),
          closed: this.shelf.closed,
          wakeAt: (at) => this.wakeAt(agentId, at),
        });
        try {
          await run.run();
        } catch (error) {
          this.deps.logger.error({ err: error, agentId }, 'agent run crashed');
        }
      } while (slot.again && !this.stopped);
    } finally {
      this.release();
    }
  }
}
