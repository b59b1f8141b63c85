import { join } from 'node:path';
import {
  detectSandbox,
  EmbeddedRunner,
  QueueRunner,
  type AgentRunner,
  type RuntimeDeps,
  type SandboxSupport,
} from '@tandem/agent';
import type { Db } from '@tandem/db';
import { createAppAuthProvider } from '@tandem/github';
import { launcher } from '@tandem/process';
import pg from 'pg';
import type { Sunset } from '@tandem/shared';
import type { Logger } from 'pino';
import type { AgentsConfig, GitHubAppConfig, ModelsConfig } from '../config/schema.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { modelEnv } from '../routes/models.js';
import { createSupervisionHost } from './supervision-host.js';

export interface AgentRuntimeOptions {
  db: Db;
  /** Postgres runs agents through graphile-worker; PGlite (one process by design) in process. */
  database: { kind: 'postgres'; url: string } | { kind: 'pglite' };
  logger: Logger;
  dataDir: string;
  app: GitHubAppConfig;
  models: ModelsConfig;
  agents: AgentsConfig;
  /** Opens repository secrets, which become the sandbox's environment. */
  secretBox: Pick<SecretBox, 'open'>;
  /** Whether this process runs agents or only queues them (a server with TANDEM_AGENT_WORKER=off). */
  work?: boolean;
  /** Octokit's write spacing (1 s) is right for GitHub and only slows tests. */
  throttle?: boolean;
  /** graphile-worker's schema (tests). */
  queueSchema?: string;
  /** After a model charge that may call for an auto-fill: the server's auto-fill check. */
  afterCharge?: (installationId: number) => void;
  /** Sunset mode: supervisors start no sub-agents once it has closed. */
  sunset?: Sunset | null;
  /** Prepares fresh sandboxes (tests hold the real one back or fail it); default the real one. */
  prepareSandbox?: RuntimeDeps['prepareSandbox'];
}

export interface AgentRuntime {
  runner: AgentRunner;
  /** Which sandbox this process uses, for /api/health. */
  sandbox: string;
  kind: 'embedded' | 'queue';
}

/** The agent queue's connections as Postgres names them (pg_stat_activity.application_name). */
export const QUEUE_APPLICATION_NAME = 'tandem-agent-queue';
/** Connections the agent queue may hold, whatever the concurrency. */
export const QUEUE_POOL_MAX = 10;

/**
 * graphile-worker holds one connection for LISTEN and borrows one only to fetch or finish a job,
 * not while an agent runs. A pool of concurrency + 2, as this was, let a burst of agents open one
 * connection per worker slot at once: at TANDEM_AGENT_CONCURRENCY=100 that is over Postgres'
 * default max_connections of 100, and every other connection (the app's requests) then failed
 * with "too many clients". Slots beyond the cap wait a moment for a connection instead.
 */
export function queuePoolSize(concurrency: number): number {
  return Math.min(concurrency + 2, QUEUE_POOL_MAX);
}

/**
 * The sandbox as /api/health reports it. With the network switched off, the probe's
 * "network: slirp4netns" would misstate what agents get.
 */
export function describeSandbox(support: SandboxSupport, network: boolean): string {
  if (support.kind !== 'bubblewrap' || network) return `${support.kind} (${support.detail})`;
  return `${support.kind} (${support.detail.replace(/network: .*$/, 'network: off (TANDEM_SANDBOX_NETWORK=off)')})`;
}

/**
 * The agent runner for this process: the embedded runner on PGlite, the graphile-worker queue on
 * Postgres (where `worker` processes, and the server unless TANDEM_AGENT_WORKER=off, run agents).
 */
export async function createAgentRuntime(options: AgentRuntimeOptions): Promise<AgentRuntime> {
  const logger = options.logger.child({ component: 'agents' });
  // Agents' git and sandbox processes start from the launcher: booting it now keeps that boot
  // out of the first agent's start.
  launcher.warm();
  const support = await detectSandbox(
    options.agents.sandbox === 'auto' ? {} : { force: options.agents.sandbox },
  );
  if (options.agents.sandbox === 'bubblewrap' && support.kind !== 'bubblewrap') {
    throw new Error(`TANDEM_SANDBOX=bubblewrap but bubblewrap does not work here: ${support.detail}`);
  }
  const auth = createAppAuthProvider({
    appId: options.app.appId,
    privateKey: options.app.privateKey,
    baseUrl: options.app.apiUrl,
    throttle: options.throttle ?? true,
    logger: { warn: (message, details) => logger.warn(details ?? {}, message) },
  });
  const deps: RuntimeDeps = {
    db: options.db,
    logger,
    models: modelEnv(options.models),
    codeHost: {
      webUrl: options.app.webUrl,
      installationToken: (id) => auth.installationToken(id),
      installationOctokit: (id) => auth.installationOctokit(id),
    },
    workspacesDir: join(options.dataDir, 'workspaces'),
    sandbox: { kind: support.kind, network: options.agents.network, host: options.agents.sandboxHost },
    openSecret: (sealed) => options.secretBox.open(sealed),
    afterCharge: options.afterCharge,
    prepareSandbox: options.prepareSandbox,
  };
  // Supervisors' tools create and wake agents through this process's runner, made just below.
  const late: { runner?: AgentRunner } = {};
  deps.supervision = createSupervisionHost({
    db: options.db,
    models: options.models,
    webUrl: options.app.webUrl,
    sunset: options.sunset ?? null,
    runner: () => late.runner!,
  });
  const work = options.work ?? options.agents.worker;
  const described = describeSandbox(support, options.agents.network);
  const sandbox = work ? described : 'none (agents run in worker processes)';
  if (options.database.kind === 'pglite') {
    late.runner = new EmbeddedRunner(deps, {
      concurrency: options.agents.concurrency,
      warmMax: options.agents.warmSandboxes,
    });
    return { runner: late.runner, sandbox: described, kind: 'embedded' };
  }
  const pgPool = new pg.Pool({
    connectionString: options.database.url,
    max: queuePoolSize(options.agents.concurrency),
    // Tells the queue's connections from the app's in pg_stat_activity; a name the operator sets
    // (URL or PGAPPNAME) wins, as for the app's own (@tandem/db POOL_APPLICATION_NAME).
    fallback_application_name: QUEUE_APPLICATION_NAME,
  });
  // An idle client's connection dropping (a Postgres restart) must not crash the process.
  pgPool.on('error', (error) => logger.warn({ err: error }, 'agent queue connection lost'));
  // A connection in use reports its loss on the client, where an 'error' event without a listener
  // would be thrown (graphile-worker warns about this and adds its own listener otherwise).
  pgPool.on('connect', (client) =>
    client.on('error', (error) => logger.warn({ err: error }, 'agent queue connection lost')),
  );
  const runner = new QueueRunner(deps, {
    pgPool,
    work,
    concurrency: options.agents.concurrency,
    warmMax: options.agents.warmSandboxes,
    schema: options.queueSchema,
    ownsPool: true,
  });
  late.runner = runner;
  return { runner, sandbox, kind: 'queue' };
}
