import autocannon from 'autocannon';
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
 * bare Fastify answering the same path with a constant JSON body, measured one after the other.
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
    // Answers must be real answers, not 401s measured as fast.
    for (const path of Object.values(paths)) {
      const res = await fetch(tandem.url + path, { headers: auth });
      if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    }
    for (const [name, path] of Object.entries(paths)) {
      baseline = await startTarget('baseline');
      const base = await load(baseline.url + path.split('?')[0], {}, options.seconds);
      await baseline.stop();
      baseline = undefined;
      const measured = await load(tandem.url + path, auth, options.seconds);
      const clean = measured.errors === 0 && measured.timeouts === 0 && measured.non2xx === 0;
      figures.push({
        name: `poll ${name} (${database}), req/s at c${CONNECTIONS}`,
        baseline: base.rps,
        tandem: measured.rps,
        ratio: measured.rps / base.rps,
        goal: `ratio ≥ ${options.goalRatio}`,
        ok: measured.rps / base.rps >= options.goalRatio,
      });
      figures.push({
        name: `poll ${name} (${database}), p99 ms, errors`,
        baseline: base.p99,
        tandem: measured.p99,
        detail: `${measured.errors} errors, ${measured.timeouts} timeouts, ${measured.non2xx} non-2xx`,
        goal: 'p99 < 20 ms, none failed',
        ok: measured.p99 < 20 && clean,
      });
    }
  } finally {
    await baseline?.stop();
    await tandem?.stop();
  }
  return figures;
}
