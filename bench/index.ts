/**
 * `npm run bench`: the figures of issue 15 beside their baselines, measured in one run on this
 * machine. Prints a table, writes it as JSON under bench/results/, and exits non-zero when a figure
 * misses its goal. Not part of `npm test`: it takes minutes and depends on the machine's load.
 *
 * BENCH_SECONDS (default 10): load per measurement. BENCH_ONLY=poll|memory|web|agents: one group of
 * figures. BENCH_AGENTS (default 100): agents started at once for the scale figure.
 * DATABASE_URL: a Postgres server whose user may create databases; otherwise
 * postgres://postgres@127.0.0.1:5432/postgres when it answers. Postgres figures are skipped when none does.
 */
import { cpus } from 'node:os';
import pg from 'pg';
import { memoryFigures } from './memory.js';
import { pollFigures } from './poll.js';
import { printTable, writeResults, type Figure } from './report.js';
import { agentFigures } from './steps.js';
import { webFigures } from './web.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const only = process.env.BENCH_ONLY;

/** A throwaway database on the given server, dropped by the returned function. */
async function throwawayDatabase(
  adminUrl: string,
): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const name = `tandem_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
  } catch {
    return null;
  } finally {
    await admin.end().catch(() => undefined);
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

const figures: Figure[] = [];
if (!only || only === 'poll') {
  console.error(`poll on PGlite (${seconds} s per measurement)…`);
  figures.push(...(await pollFigures('pglite', { seconds, goalRatio: 0.25 })));
  const postgres = await throwawayDatabase(
    process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
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
  figures.push(...(await webFigures({ runs: 3 })));
}

if (!only || only === 'agents') {
  const agents = Number(process.env.BENCH_AGENTS ?? 100);
  console.error(`agent figures (local code host, fake model, ${agents} agents at once)…`);
  figures.push(...(await agentFigures({ agents })));
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
