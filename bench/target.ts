/**
 * One server under test, run as a child process so that the load generator (the parent) never
 * shares its event loop: `baseline` (bare Fastify) or `tandem` (the real server from `startServer`,
 * PGlite by default, Postgres when BENCH_DATABASE_URL is set). Reports its address and a signed-in
 * user's token over IPC, then serves until killed.
 */
import './as-product.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { agents, conversationItems, installations, memberships, repositories, users } from '@tandem/db';
import { loadConfig, startServer } from '@tandem/server';
import pino from 'pino';

export interface TargetInfo {
  url: string;
  token?: string;
  agentId?: string;
  pid: number;
  /**
   * The target's data directory. The bench removes it once the target has exited: a target that
   * outlives its grace is killed, and its own exit handler never runs (each agents run left one
   * behind, 0.4-24 GB of workspaces).
   */
  dataDir?: string;
}

/** A static page with one paragraph: the first-contentful-paint baseline. */
export const STATIC_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Static</title></head><body><p>Tandem</p></body></html>';

/**
 * Answers the bare-Fastify baseline gives, by path, as BENCH_BASELINE_ANSWERS may set them: the
 * poll figures pass Tandem's own answers, so that both sides send the same JSON and the figure
 * measures what the product adds, not the size of the bench user's data.
 */
function baselineAnswers(): Record<string, unknown> {
  return {
    '/api/agent/latest-timestamp': { latest_timestamp: new Date().toISOString() },
    '/api/agents/status-counts': { running_agents: [], unread_agents: [] },
    ...(JSON.parse(process.env.BENCH_BASELINE_ANSWERS ?? '{}') as Record<string, unknown>),
  };
}

async function baseline(): Promise<TargetInfo> {
  const app = Fastify({ logger: false });
  for (const [path, answer] of Object.entries(baselineAnswers())) app.get(path, async () => answer);
  app.get('/', async (_request, reply) => reply.type('text/html').send(STATIC_PAGE));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, pid: process.pid };
}

async function tandem(): Promise<TargetInfo> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-bench-'));
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    TANDEM_DATA_DIR: dataDir,
    PORT: '0',
    CODEHOST_PORT: '0',
    // Workflow runs on the agents' pushes would compete with what is measured.
    CODEHOST_CI: 'off',
    STRIPE_LOCAL_PORT: '0',
    HOST: '127.0.0.1',
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    ...(process.env.TANDEM_WEB_DIST ? { TANDEM_WEB_DIST: process.env.TANDEM_WEB_DIST } : {}),
  });
  // The product's default log level: every request is logged, as in production.
  const logger = pino(
    { level: process.env.BENCH_LOG_LEVEL ?? config.logLevel },
    pino.destination('/dev/null'),
  );
  const running = await startServer(config, logger);
  const { db } = running.database;

  // A user with one repository and a few agents, one of them with a conversation.
  const [user] = await db.insert(users).values({ githubId: 424242, username: 'bench' }).returning();
  await db
    .insert(installations)
    .values({ id: 4242, accountLogin: 'bench', accountType: 'Organization' })
    .onConflictDoNothing();
  await db.insert(memberships).values({ userId: user!.id, installationId: 4242, role: 'admin' });
  const [repo] = await db
    .insert(repositories)
    .values({ githubId: 424243, installationId: 4242, fullName: 'bench/app' })
    .returning();
  const now = new Date();
  const rows = await db
    .insert(agents)
    .values(
      Array.from({ length: 10 }, (_, i) => ({
        number: i + 1,
        title: `Agent ${i + 1}`,
        status: i < 3 ? 'open' : 'paused',
        repositoryId: repo!.id,
        installationId: 4242,
        creatorId: user!.id,
        model: 'scripted',
        summarizationLimit: 150_000,
        latestTimestamp: now,
        lastActive: now,
      })),
    )
    .returning({ id: agents.id });
  const agentId = rows[0]!.id;
  await db.insert(conversationItems).values(
    Array.from({ length: 200 }, (_, i) => ({
      agentId,
      timestamp: new Date(now.getTime() - (200 - i) * 1000).toISOString(),
      itemType: 'message',
      actionUuid: crypto.randomUUID(),
      actionType: 'agent_message',
      data: { message: `Message ${i}` },
    })),
  );
  const { token } = await running.app.sessions.create(user!.id);
  return { url: running.url.replace('localhost', '127.0.0.1'), token, agentId, pid: process.pid, dataDir };
}

const kind = process.argv[2];
const info = kind === 'baseline' ? await baseline() : await tandem();
process.send?.(info);
// Exit normally on a signal, so `--cpu-prof` and exit handlers (the data dir's removal) run.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(0));
