import autocannon from 'autocannon';
import { median } from './median.js';
import type { Figure } from './report.js';
import { startTarget, type RunningTarget } from './servers.js';

export interface LoadResult {
  rps: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

const CONNECTIONS = 50;
/** What Chromium sends as Accept-Encoding. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';
/** Measurements of each side per figure, taken in turns. */
const ROUNDS = 3;

/** A poll URL's path without its query: what the baseline routes on. */
function route(path: string): string {
  return path.split('?')[0]!;
}

function sum(results: LoadResult[], key: 'errors' | 'timeouts' | 'non2xx'): number {
  return results.reduce((total, r) => total + r[key], 0);
}

/** autocannon against one URL: `seconds` of load after a short warm-up. */
export async function load(
  url: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<LoadResult> {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: Math.min(2, seconds) });
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds, timeout: 5 });
  return {
    rps: Math.round(result.requests.average),
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

/**
 * The poll figures on one database: each of Tandem's poll endpoints under 50 connections beside
 * bare Fastify answering the same path with the same JSON (Tandem's answer, fetched first),
 * measured in turns.
 */
export async function pollFigures(
  database: 'pglite' | 'postgres',
  options: { seconds: number; databaseUrl?: string; goalRatio: number },
): Promise<Figure[]> {
  const figures: Figure[] = [];
  let tandem: RunningTarget | undefined;
  let baseline: RunningTarget | undefined;
  try {
    tandem = await startTarget(
      'tandem',
      options.databaseUrl ? { BENCH_DATABASE_URL: options.databaseUrl } : {},
    );
    const auth = { authorization: `Bearer ${tandem.token}` };
    const paths = {
      'latest-timestamp': `/api/agent/latest-timestamp?trajectory_id=${tandem.agentId}`,
      'status-counts': '/api/agents/status-counts',
    };
    // Answers must be real answers, not 401s measured as fast. The baseline sends the same ones.
    const answers: Record<string, unknown> = {};
    for (const path of Object.values(paths)) {
      const res = await fetch(tandem.url + path, { headers: auth });
      if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
      answers[route(path)] = await res.json();
    }
    for (const [name, path] of Object.entries(paths)) {
      // Baseline and Tandem in turns, ROUNDS times, each figure the median: on a shared VM a
      // single 10 s reading of either moved by a third from one run to the next (bench/README.md).
      baseline = await startTarget('baseline', { BENCH_BASELINE_ANSWERS: JSON.stringify(answers) });
      const bases: LoadResult[] = [];
      const measures: LoadResult[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        bases.push(await load(baseline.url + route(path), {}, options.seconds));
        measures.push(await load(tandem.url + path, auth, options.seconds));
      }
      await baseline.stop();
      baseline = undefined;
      const base = median(bases.map((r) => r.rps));
      const rps = median(measures.map((r) => r.rps));
      const errors = sum(measures, 'errors');
      const timeouts = sum(measures, 'timeouts');
      const non2xx = sum(measures, 'non2xx');
      // The worst round's p99: a stall in any round counts.
      const p99 = Math.max(...measures.map((r) => r.p99));
      figures.push({
        name: `poll ${name} (${database}), req/s at c${CONNECTIONS}`,
        baseline: base,
        tandem: rps,
        ratio: rps / base,
        detail: `same ${Buffer.byteLength(JSON.stringify(answers[route(path)]))}-byte answer; medians of ${ROUNDS} in turns; rounds ${measures.map((r, i) => (r.rps / bases[i]!.rps).toFixed(2)).join(', ')}`,
        goal: `ratio ≥ ${options.goalRatio}`,
        ok: rps / base >= options.goalRatio,
      });
      if (name === 'status-counts') {
        // Shown beside it: the same poll as a browser sends it. Browsers ask for compression, which
        // autocannon does not, and this answer is over the compression threshold (bench/README.md).
        const browser = await load(
          tandem.url + path,
          { ...auth, 'accept-encoding': BROWSER_ENCODINGS },
          options.seconds,
        );
        figures.push({
          name: `poll ${name} (${database}) as a browser asks, req/s at c${CONNECTIONS}`,
          baseline: base,
          tandem: browser.rps,
          ratio: browser.rps / base,
          detail: `Accept-Encoding: ${BROWSER_ENCODINGS}; one run; p99 ${browser.p99} ms; ${browser.errors + browser.timeouts + browser.non2xx} failed`,
          goal: 'measured',
          ok: true,
        });
      }
      figures.push({
        name: `poll ${name} (${database}), p99 ms, errors`,
        baseline: Math.max(...bases.map((r) => r.p99)),
        tandem: p99,
        detail: `${errors} errors, ${timeouts} timeouts, ${non2xx} non-2xx; worst of ${ROUNDS}`,
        goal: 'p99 < 20 ms, none failed',
        ok: p99 < 20 && errors + timeouts + non2xx === 0,
      });
    }
  } finally {
    await baseline?.stop();
    await tandem?.stop();
  }
  return figures;
}
