/**
 * Issue 15's scale-out figure: on Postgres, a second agent-running process raises throughput. N
 * agents (BENCH_AGENTS) start at once with a 1 s model against Tandem on Postgres, each run on a
 * fresh database: (A) the server runs agents itself; (B) the same server plus one `worker` process
 * (README "Scaling out"). Both processes get the same concurrency (BENCH_WORKER_CONCURRENCY,
 * default the product's 4), far below N, so that in (A) the one process's slots are the
 * bottleneck and (B) offers twice as many. Measured is the time until every agent is idle.
 *
 * On one small machine the two processes share its cores: each agent's start (clone, setup
 * script, network namespace: some 35 processes) costs about a quarter of a CPU second, so with
 * concurrency near N/2 the machine's CPU, not a process's slots, is the bottleneck and a second
 * process cannot help. The default measures what a worker adds; README.md gives both figures.
 */
import type { AgentTargetInfo } from './agent-target.js';
import type { Figure } from './report.js';
import { startTarget, startWorkerProcess } from './servers.js';
import { apiOf } from './api.js';
import { agentsAtOnce, fakeModel, type FakeModel } from './steps.js';
import { throwawayDatabase } from './throwaway-database.js';

const round = (ms: number) => Math.round(ms * 10) / 10;

interface Run {
  elapsed: number;
  failed: number;
}

/** One run on a fresh database, with `workers` extra `worker` processes beside the server. */
async function measure(
  model: FakeModel,
  options: { agents: number; concurrency: number; workers: number },
): Promise<Run | null> {
  const database = await throwawayDatabase();
  if (!database) return null;
  const stops: (() => Promise<void>)[] = [];
  try {
    const target = await startTarget('agents', {
      BENCH_MODEL_URL: model.url,
      BENCH_AGENT_CONCURRENCY: String(options.concurrency),
      BENCH_DATABASE_URL: database.url,
    });
    stops.push(() => target.stop());
    const info = target as unknown as AgentTargetInfo;
    for (let i = 0; i < options.workers; i++) {
      // What agent-target.ts gives the server, plus what a worker needs to reach it: the same
      // database and data dir (secret key, the local code host's app credentials) and that host's port.
      const worker = await startWorkerProcess({
        DATABASE_URL: database.url,
        TANDEM_DATA_DIR: info.dataDir,
        HOST: '127.0.0.1',
        CODEHOST_PORT: String(info.codeHostPort),
        TANDEM_OPENAI_COMPATIBLE_URL: model.url,
        TANDEM_OPENAI_COMPATIBLE_MODELS: 'bench',
        TANDEM_DEFAULT_MODEL: 'local/bench',
        TANDEM_DEMO_MODEL: 'off',
        TANDEM_AGENT_CONCURRENCY: String(options.concurrency),
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      });
      stops.unshift(() => worker.stop());
    }
    return await agentsAtOnce(apiOf(info), model, options.agents);
  } finally {
    // Workers before the server (they share its data dir, removed when it exits), then the database.
    for (const stop of stops) await stop().catch(() => undefined);
    await database.drop();
  }
}

/** Null when no Postgres answers (the figure is skipped). */
export async function workerFigures(options: {
  agents: number;
  concurrency: number;
}): Promise<Figure[] | null> {
  const { agents, concurrency } = options;
  const model = await fakeModel();
  let one: Run | null;
  let two: Run | null;
  try {
    model.setLatency(1000);
    one = await measure(model, { agents, concurrency, workers: 0 });
    if (!one) return null;
    two = await measure(model, { agents, concurrency, workers: 1 });
    if (!two) return null;
  } finally {
    await model.close();
  }
  const failed = one.failed + two.failed;
  const ratio = two.elapsed / one.elapsed;
  return [
    {
      name: `${agents} agents on Postgres, 1 s model: server + worker (ms)`,
      baseline: round(one.elapsed),
      tandem: round(two.elapsed),
      ratio,
      detail:
        `baseline: the server alone; concurrency ${concurrency} per process, the bottleneck` +
        (failed ? `; ${failed} failed` : ''),
      goal: 'two processes faster than one',
      ok: failed === 0 && ratio < 1,
    },
  ];
}
