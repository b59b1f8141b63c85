import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { agents, runnerProcesses, runnerWorkerIds } from '@tandem/db';
import { and, eq, inArray, lt, or } from 'drizzle-orm';
import {
  Logger as WorkerLogger,
  makeWorkerUtils,
  run as runWorker,
  type Runner,
  type Task,
  type WorkerUtils,
} from 'graphile-worker';
import type { Pool } from 'pg';
import { isAlive } from '../sandbox/process-tree.js';
import { clearInterruptIfIdle } from './asleep.js';
import { AgentRun, SHUTDOWN, USER_INTERRUPT } from './run-agent.js';
import type { RuntimeDeps } from './runtime-deps.js';
import { startNewAgentReads, type AgentRunner, type NewAgentStart } from './runner.js';
import { cancelWait } from './wait.js';
import { SandboxShelf } from './sandbox-shelf.js';

export const RUN_AGENT_TASK = 'run_agent';
const HEARTBEAT_MS = 10_000;
/** A process silent this long is dead; its locked runs go back to the queue. */
const STALE_AFTER_MS = 60_000;
const INTERRUPT_POLL_MS = 1_000;

export interface QueueRunnerOptions {
  pgPool: Pool;
  /** End the pool on stop() (it was opened for this runner). */
  ownsPool?: boolean;
  /** Whether this process runs agents (`tandem worker`, or a server with its worker on) or only queues them. */
  work: boolean;
  concurrency?: number;
  /** The graphile-worker schema (tests give each run its own). */
  schema?: string;
  pollIntervalMs?: number;
  warmTtlMs?: number;
  /** Warm sandboxes kept at most (WARM_MAX when unset). */
  warmMax?: number;
}

const queueOf = (agentId: string) => `agent:${agentId}`;
/** graphile-worker's warning about a pool smaller than its concurrency. */
const POOL_SIZE_WARNING = 'WARNING: having maxPoolSize';

/**
 * Runs agents through graphile-worker on Postgres: one job queue per agent keeps its runs serial
 * across any number of worker processes, and jobs survive restarts. graphile-worker 0.17 only
 * frees a crashed worker's locks after four hours, so processes heartbeat into `runner_processes`
 * and any live process force-unlocks the jobs of one that went silent (or, on the same host,
 * whose pid is gone); the run then continues from the stored conversation.
 */
export class QueueRunner implements AgentRunner {
  readonly processId = randomUUID();
  private utils: WorkerUtils | undefined;
  private worker: Runner | undefined;
  private readonly running = new Map<string, AbortController>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly shelf: SandboxShelf;
  private stopped = false;

  constructor(
    private readonly deps: RuntimeDeps,
    private readonly options: QueueRunnerOptions,
  ) {
    this.shelf = new SandboxShelf(deps.logger, { ttlMs: options.warmTtlMs, max: options.warmMax });
  }

  private get logger() {
    const log = this.deps.logger;
    return new WorkerLogger(() => (level, message, meta) => {
      const details = { ...meta, component: 'graphile-worker' };
      // The server caps the queue's pool below a large concurrency on purpose: a connection is
      // borrowed only to fetch or finish a job (runtime-setup.ts, queuePoolSize).
      if (message.startsWith(POOL_SIZE_WARNING)) return;
      if (level === 'error') log.error(details, message);
      else if (level === 'warning') log.warn(details, message);
      // info/debug chatter (every job picked up) stays out of the server log.
    });
  }

  async start(): Promise<void> {
    const shared = { pgPool: this.options.pgPool, schema: this.options.schema, logger: this.logger };
    this.utils = await makeWorkerUtils(shared);
    await this.utils.migrate();
    if (!this.options.work) return;
    await this.heartbeat();
    await this.recoverDeadProcesses();
    this.worker = await runWorker({
      ...shared,
      concurrency: this.options.concurrency ?? 4,
      noHandleSignals: true,
      pollInterval: this.options.pollIntervalMs ?? 2_000,
      taskList: { [RUN_AGENT_TASK]: this.task },
    });
    this.every(HEARTBEAT_MS, async () => {
      await this.heartbeat();
      await this.recoverDeadProcesses();
    });
    this.every(INTERRUPT_POLL_MS, () => this.pollInterrupts());
  }

  enqueue(agentId: string, created?: NewAgentStart): void {
    if (this.stopped) return;
    const utils = this.utils;
    if (!utils) throw new Error('QueueRunner.enqueue before start()');
    // This process's own worker often takes the job; when another does, the read is one shared
    // request wasted, dropped within seconds (instruction-reads.ts).
    if (created && this.options.work) startNewAgentReads(this.deps, agentId, created);
    // One key per agent: messages arriving while a run is queued fold into it; while a run is
    // going, graphile-worker queues a fresh job behind it in the agent's queue.
    void utils
      .addJob(
        RUN_AGENT_TASK,
        { agentId },
        { queueName: queueOf(agentId), jobKey: `${RUN_AGENT_TASK}:${agentId}`, maxAttempts: 25 },
      )
      .catch((error: unknown) =>
        this.deps.logger.error({ err: error, agentId }, 'could not queue agent run'),
      );
  }

  /**
   * A waiting agent's wake: a job in the agent's queue that runs at `at` (graphile-worker keeps it
   * across restarts; a newer wait replaces it by its key). A run before then finds it waiting.
   */
  private wakeAt(agentId: string, at: Date): void {
    if (this.stopped || !this.utils) return;
    void this.utils
      .addJob(
        RUN_AGENT_TASK,
        { agentId },
        { queueName: queueOf(agentId), jobKey: `wake:${agentId}`, runAt: at, maxAttempts: 25 },
      )
      .catch((error: unknown) => this.deps.logger.error({ err: error, agentId }, 'could not queue a wake'));
  }

  async interrupt(agentId: string): Promise<void> {
    await this.deps.db.update(agents).set({ interruptRequested: true }).where(eq(agents.id, agentId));
    this.running.get(agentId)?.abort(USER_INTERRUPT);
    // A waiting agent has no run to stop: stopping ends the wait and drops its wake job.
    if (await cancelWait(this.deps.db, agentId)) {
      const schema = this.options.schema ?? 'graphile_worker';
      await this.options.pgPool.query(`select "${schema}".remove_job($1)`, [`wake:${agentId}`]);
    }
    // A run that is queued or going elsewhere sees the flag; an agent with no run has nothing to stop.
    await clearInterruptIfIdle(this.deps.db, agentId);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const controller of this.running.values()) controller.abort(SHUTDOWN);
    await this.worker?.stop();
    await this.utils?.release();
    await this.deps.db.delete(runnerProcesses).where(eq(runnerProcesses.id, this.processId));
    await this.shelf.stop();
    if (this.options.ownsPool) await this.options.pgPool.end();
  }

  /** Resolves once the agent has no run due or going (tests); a waiting agent's wake is not due. */
  async idle(agentId?: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const schema = this.options.schema ?? 'graphile_worker';
    for (;;) {
      const { rows } = await this.options.pgPool.query<{ n: string }>(
        agentId
          ? `select count(*) as n from "${schema}".jobs where queue_name = $1 and run_at <= now()`
          : `select count(*) as n from "${schema}".jobs where queue_name like 'agent:%' and run_at <= now()`,
        agentId ? [queueOf(agentId)] : [],
      );
      const busy = agentId ? this.running.has(agentId) : this.running.size > 0;
      // A run may end before its sandbox is ready: idle also means that sandbox is warm (or failed).
      if (rows[0]?.n === '0' && !busy) return this.shelf.settled(agentId);
      if (Date.now() > deadline)
        throw new Error(`agent ${agentId ?? '(any)'} still has runs after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private readonly task: Task = async (payload, helpers) => {
    const { agentId } = payload as { agentId: string };
    if (helpers.job.locked_by) {
      await this.heartbeat(); // the row may have been swept while this process was paused
      await this.deps.db
        .insert(runnerWorkerIds)
        .values({ workerId: helpers.job.locked_by, processId: this.processId })
        .onConflictDoNothing();
    }
    const controller = new AbortController();
    const onShutdown = () => controller.abort(SHUTDOWN);
    helpers.abortSignal?.addEventListener('abort', onShutdown);
    this.running.set(agentId, controller);
    try {
      const run = new AgentRun(this.deps, agentId, controller.signal, {
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
      // A shutdown leaves the agent queued: failing the job hands it back for a retry.
      if (controller.signal.reason === SHUTDOWN)
        throw new Error('worker shutting down; the run resumes later');
    } finally {
      helpers.abortSignal?.removeEventListener('abort', onShutdown);
      this.running.delete(agentId);
    }
  };

  private every(ms: number, work: () => Promise<void>) {
    let busy = false;
    const timer = setInterval(() => {
      if (busy || this.stopped) return;
      busy = true;
      work()
        .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'agent runner upkeep failed'))
        .finally(() => (busy = false));
    }, ms);
    timer.unref();
    this.timers.push(timer);
  }

  private async heartbeat(): Promise<void> {
    const now = new Date();
    await this.deps.db
      .insert(runnerProcesses)
      .values({ id: this.processId, hostname: hostname(), pid: process.pid, heartbeatAt: now })
      .onConflictDoUpdate({ target: runnerProcesses.id, set: { heartbeatAt: now } });
  }

  private async recoverDeadProcesses(): Promise<void> {
    const here = hostname();
    const candidates = await this.deps.db
      .select()
      .from(runnerProcesses)
      .where(
        or(
          lt(runnerProcesses.heartbeatAt, new Date(Date.now() - STALE_AFTER_MS)),
          eq(runnerProcesses.hostname, here),
        ),
      );
    const dead = candidates.filter(
      (p) =>
        p.id !== this.processId &&
        (p.heartbeatAt.getTime() < Date.now() - STALE_AFTER_MS || (p.hostname === here && !isAlive(p.pid))),
    );
    if (!dead.length) return;
    const ids = dead.map((p) => p.id);
    const workers = await this.deps.db
      .select({ workerId: runnerWorkerIds.workerId })
      .from(runnerWorkerIds)
      .where(inArray(runnerWorkerIds.processId, ids));
    if (workers.length) await this.utils!.forceUnlockWorkers(workers.map((w) => w.workerId));
    await this.deps.db.delete(runnerProcesses).where(inArray(runnerProcesses.id, ids));
    this.deps.logger.warn(
      { processes: ids, workers: workers.length },
      'took over the runs of stopped agent workers',
    );
  }

  private async pollInterrupts(): Promise<void> {
    const ids = [...this.running.keys()];
    if (!ids.length) return;
    const flagged = await this.deps.db
      .select({ id: agents.id })
      .from(agents)
      .where(and(inArray(agents.id, ids), eq(agents.interruptRequested, true)));
    for (const { id } of flagged) this.running.get(id)?.abort(USER_INTERRUPT);
  }
}
