/**
 * Tandem with the local code host and a real agent runtime, for the agent figures (bench/steps.ts):
 * its models are `local/bench` on the OpenAI-compatible endpoint BENCH_MODEL_URL (a fake model run
 * by the parent), and `ada` of the seeded code host is signed in without a browser. Reports its
 * address, ada's session token, a clone URL of acme/webapp with an installation token, and answers
 * `{ seed: { agentId, count } }` over IPC by adding that many conversation items to the agent, and
 * `{ settle: true }` once no run and no sandbox preparation a run left going is under way,
 * `{ retainedHeap: true }` with its heap in use after a full garbage collection (MB), and
 * `{ spawnCost: true }` with how long starting a process blocks it, by spawn() and through the
 * launcher the server now uses (bench/spawn-cost.ts). On
 * Postgres (BENCH_DATABASE_URL) it also reports its data dir and code host port, which a `worker`
 * process beside it needs (bench/workers.ts).
 */
import './as-product.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conversationItems } from '@tandem/db';
import { loadConfig, startServer, syncUserFromCodeHost } from '@tandem/server';
import pino from 'pino';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { spawnBlockingMs } from './spawn-cost.js';

export interface AgentTargetInfo {
  url: string;
  token: string;
  cloneUrl: string;
  pid: number;
  /** Shared with `worker` processes: the secret key and the local code host's app credentials. */
  dataDir: string;
  codeHostPort: number;
}

const dataDir = mkdtempSync(join(tmpdir(), 'tandem-bench-agents-'));
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
const config = loadConfig({
  TANDEM_DATA_DIR: dataDir,
  PORT: '0',
  CODEHOST_PORT: '0',
  // Workflow runs on the agents' pushes would compete with what is measured.
  CODEHOST_CI: 'off',
  STRIPE_LOCAL_PORT: '0',
  HOST: '127.0.0.1',
  TANDEM_OPENAI_COMPATIBLE_URL: process.env.BENCH_MODEL_URL ?? '',
  TANDEM_OPENAI_COMPATIBLE_MODELS: 'bench',
  TANDEM_DEFAULT_MODEL: 'local/bench',
  TANDEM_DEMO_MODEL: 'off',
  TANDEM_AGENT_CONCURRENCY: process.env.BENCH_AGENT_CONCURRENCY ?? '4',
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
});
const logger = pino({ level: process.env.BENCH_LOG_LEVEL ?? config.logLevel }, pino.destination('/dev/null'));
const running = await startServer(config, logger);
const local = running.codeHost.local;
if (!local) throw new Error('bench/agent-target.ts needs the local code host');

// ada signs in as the OAuth callback would sign her in: the code host's view of her, mirrored.
const userToken = await local.issueUserToken('ada');
const view = await running.codeHost.gateway.loadUserView(userToken);
const userId = await syncUserFromCodeHost(running.database.db, {
  ...view,
  sealedToken: running.app.secretBox.seal(userToken),
  admin: false,
});
const { token } = await running.app.sessions.create(userId);
const acme = view.installations.find((i) => i.installation.account.login === 'acme');
if (!acme) throw new Error('the seeded code host has no acme installation');
const installationToken = await local.issueInstallationToken(acme.installation.id);
const cloneUrl = `${local.url.replace('://', `://x-access-token:${installationToken}@`)}/acme/webapp.git`;

/** The heap in use after a full garbage collection, without starting the server with --expose-gc. */
function retainedHeapMb(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return Math.round(process.memoryUsage().heapUsed / 1048576);
}

type Request = {
  seed?: { agentId: string; count: number };
  settle?: boolean;
  spawnCost?: boolean;
  retainedHeap?: boolean;
};
process.on('message', (message: Request) => {
  if (message.retainedHeap) {
    process.send?.({ retainedHeapMb: retainedHeapMb() });
    return;
  }
  if (message.settle) {
    void running.runner.idle().then(() => process.send?.({ settled: true }));
    return;
  }
  if (message.spawnCost) {
    void (async () => {
      const spawnMs = await spawnBlockingMs();
      const launchMs = await spawnBlockingMs(21, 'launcher');
      process.send?.({ spawnMs, launchMs });
    })();
    return;
  }
  if (!message.seed) return;
  const { agentId, count } = message.seed;
  void (async () => {
    const start = Date.now() - count * 1000;
    for (let offset = 0; offset < count; offset += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - offset) }, (_, i) => ({
        agentId,
        timestamp: new Date(start + (offset + i) * 10).toISOString(),
        itemType: 'message',
        actionUuid: crypto.randomUUID(),
        actionType: 'agent_message',
        data: { message: `Earlier message ${offset + i}`, username: 'tandem', role: 'assistant' },
      }));
      await running.database.db.insert(conversationItems).values(batch);
    }
    process.send?.({ seeded: agentId });
  })();
});

const info: AgentTargetInfo = {
  url: running.url.replace('localhost', '127.0.0.1'),
  token,
  cloneUrl,
  pid: process.pid,
  dataDir,
  codeHostPort: Number(new URL(local.url).port),
};
process.send?.(info);
// On a signal the server stops as `main.ts` stops it: its runner ends the warm sandboxes, and with
// them their network holders' private directories, which an exit alone left behind in the temp
// directory (some 100 empty tandem-net-* directories per bench run).
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void running.close().finally(() => process.exit(0));
  });
