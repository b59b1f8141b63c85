/**
 * `npm run bench`: the figures of issue 15 beside their baselines, measured in one run on this
 * machine. Prints a table, writes it as JSON under bench/results/, and exits non-zero when a figure
 * misses its goal. Not part of `npm test`: it takes minutes and depends on the machine's load.
 *
 * BENCH_SECONDS (default 10): load per measurement. BENCH_ONLY=poll|memory|web|agents: one group of
 * figures. BENCH_AGENTS (default 100): agents started at once for the scale figures.
 * BENCH_WORKER_CONCURRENCY (default 4, the product's default): each process's concurrency in the
 * Postgres figure of the server alone vs the server plus one `worker` process (bench/workers.ts).
 * BENCH_LOG_LEVEL: the servers' and worker's log level (default the product's `info`; logs dropped).
 * DATABASE_URL: a Postgres server whose user may create databases; otherwise
 * postgres://postgres@127.0.0.1:5432/postgres when it answers. Postgres figures are skipped when
 * none does; each of their runs gets a fresh database, dropped afterwards.
 * Internal, set for the child processes: BENCH_MODEL_URL, BENCH_AGENT_CONCURRENCY, BENCH_DATABASE_URL.
 */
import { cpus } from 'node:os';
import { memoryFigures } from './memory.js';
import { pollFigures } from './poll.js';
import { printTable, writeResults, type Figure } from './report.js';
import { agentFigures } from './steps.js';
import { throwawayDatabase } from './throwaway-database.js';
import { webFigures } from './web.js';
import { workerFigures } from './workers.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const only = process.env.BENCH_ONLY;

const figures: Figure[] = [];
if (!only || only === 'poll') {
  console.error(`poll on PGlite (${seconds} s per measurement)…`);
  figures.push(...(await pollFigures('pglite', { seconds, goalRatio: 0.25 })));
  const postgres = await throwawayDatabase();
  if (postgres) {
    try {
      console.error('poll on Postgres…');
      figures.push(
        ...(await pollFigures('postgres', { seconds, goalRatio: 0.5, databaseUrl: postgres.url })),
      );
    } finally {
      await postgres.drop();
    }
  } else {
    console.error('no Postgres answered: Postgres figures skipped');
  }
}
if (!only || only === 'memory') {
  console.error('idle memory of the server on PGlite…');
  figures.push(...(await memoryFigures({ idleMs: 5000 })));
}
if (!only || only === 'web') {
  console.error('web figures (Chromium)…');
  figures.push(...(await webFigures({ runs: 25 })));
}

if (!only || only === 'agents') {
  const agents = Number(process.env.BENCH_AGENTS ?? 100);
  console.error(`agent figures (local code host, fake model, ${agents} agents at once)…`);
  figures.push(...(await agentFigures({ agents })));
  const concurrency = Number(process.env.BENCH_WORKER_CONCURRENCY ?? Math.min(4, Math.ceil(agents / 2)));
  console.error(
    `${agents} agents on Postgres at concurrency ${concurrency}: the server alone, then with a worker…`,
  );
  const workers = await workerFigures({ agents, concurrency });
  if (workers) figures.push(...workers);
  else console.error('no Postgres answered: the worker figure skipped');
}

printTable(figures);
const path = writeResults(figures, {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  seconds,
});
console.log(`\nwritten to ${path}`);
const missed = figures.filter((f) => !f.ok);
if (missed.length) {
  console.log(`${missed.length} figure(s) missed their goal`);
  process.exitCode = 1;
}
