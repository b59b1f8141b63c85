import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { installations, memberships, repositories, users, type QueryLogger } from '@tandem/db';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '@tandem/db/testing';
import { startCodeHost, type RunningCodeHost } from '@tandem/codehost';
import { localCiOptions } from '../github/code-host-setup.js';
import { buildApp, type App } from '../app.js';
import { grantFreeCredits, type AgentRunner } from '@tandem/agent';
import { createAgentRuntime, type AgentRuntimeOptions } from '../agents/runtime-setup.js';
import {
  loadConfig,
  LOCAL_PREVIEW_URL,
  type AgentsConfig,
  type Config,
  type ModelsConfig,
} from '../config/schema.js';
import type { Sunset } from '@tandem/shared';
import type { PartySettings } from '../config/party.js';
import { createOctokitGateway } from '../github/octokit-gateway.js';
import { SecretBox } from '../crypto/secret-box.js';
import { membershipPermissions } from './membership-permissions.js';
import { localBillingProvider } from '../billing/billing-setup.js';
import { startLocalStripe, type RunningLocalStripe } from '../billing/local-stripe/server.js';

const TEST_SECRET_KEY = 'test-secret-key-test-secret-key-test';

/** Like the real build, it sets the theme in an inline script, which the CSP must allow by hash. */
export const TEST_INDEX_HTML =
  "<!doctype html><html><head><title>Tandem</title><script>document.documentElement.dataset.theme = 'light';</script></head><body>spa</body></html>";

/** The landing page for visitors without a session: an inline script of its own, and slots to fill. */
export const TEST_LANDING_HTML =
  "<!doctype html><html><head><title>Tandem</title><script>document.documentElement.dataset.theme = 'dark';</script></head><body>landing<!--tandem:claim--><footer><!--tandem:footer--></footer></body></html>";

export interface TestUser {
  id: string;
  username: string;
  token: string;
}

/** Stands in for the agent runner in tests that do not run agents: it only records what was asked. */
export class RecordingRunner implements Pick<AgentRunner, 'enqueue' | 'interrupt'> {
  readonly enqueued: string[] = [];
  readonly interrupted: string[] = [];
  enqueue(agentId: string): void {
    this.enqueued.push(agentId);
  }
  async interrupt(agentId: string): Promise<void> {
    this.interrupted.push(agentId);
  }
}

export interface TestApp extends App {
  database: TestDatabase;
  /** The real runner when the test asked for agents (embedded on PGlite, the queue on Postgres), else a RecordingRunner. */
  runner: AgentRunner | RecordingRunner;
  /** The local code host, when the test asked for one. */
  codeHost: RunningCodeHost | undefined;
  /** The local billing stand-in (its webhooks reach the app only with `billing: true`). */
  billing: RunningLocalStripe;
  /** Creates a user (and optionally installations they belong to) and returns a live session token. */
  signIn(spec: {
    username: string;
    admin?: boolean;
    installations?: { id: number; name: string; role: 'admin' | 'member'; repos?: string[] }[];
  }): Promise<TestUser>;
  close(): Promise<void>;
}

let nextGithubId = 1000;

export const TEST_WEBHOOK_SECRET = 'test-webhook-secret';

/**
 * The real app on a throwaway database, with a stand-in built web app; not listening (use inject).
 * With `codeHost: true` a real local code host runs beside it (sign-in, installations); without
 * one, the code host is an address nothing answers on.
 */
export async function createTestApp(
  kind: TestDatabaseKind = 'pglite',
  options: {
    codeHost?: boolean;
    /** The code host's local CI, wired as the server wires it (workflow steps in the sandbox). */
    codeHostCi?: boolean;
    /** Runs agents for real (needs codeHost): models as configured here, sandbox as detected. */
    agents?: {
      models?: Partial<ModelsConfig>;
      sandbox?: AgentsConfig['sandbox'];
      /** TANDEM_WARM_SANDBOXES. */
      warmSandboxes?: number;
      /** false: this app only queues runs (Postgres), for tests that run `worker` processes. */
      work?: boolean;
      /** TANDEM_AGENT_CONCURRENCY. */
      concurrency?: number;
      /** Wraps sandbox preparation (hold it back, fail it); default the real one. */
      prepareSandbox?: AgentRuntimeOptions['prepareSandbox'];
    };
    /**
     * The HTTP edge: trusted proxies (default none), rate limits (default the product's) and the
     * public URL (default none, as for plain http).
     */
    edge?: Partial<Pick<Config, 'trustedProxies' | 'rateLimits' | 'publicUrl'>>;
    /**
     * Where repository access levels come from: 'code-host' asks the local code host (needs
     * codeHost and its seeded users); by default the test's memberships stand in for it.
     */
    access?: 'code-host' | 'memberships';
    /** Model configuration for tests that do not run agents (e.g. provider keys, so models are available). */
    models?: Partial<ModelsConfig>;
    /** Sees every statement the app's database connection sends (tests count queries). */
    logQuery?: QueryLogger;
    /** Sunset mode (off by default, as in a real deployment). */
    sunset?: Sunset;
    /** The public party agent (off by default, as without TANDEM_PARTY_REPO). */
    party?: PartySettings;
    /**
     * Runs the local billing stand-in and makes the app listen on a free port, so the stand-in's
     * signed webhooks reach it over real HTTP.
     */
    billing?: boolean;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase(kind, { logQuery: options.logQuery });
  const webDist = mkdtempSync(join(tmpdir(), 'tandem-web-'));
  writeFileSync(join(webDist, 'index.html'), TEST_INDEX_HTML);
  writeFileSync(join(webDist, 'landing.html'), TEST_LANDING_HTML);
  const codeHostDir = options.codeHost ? mkdtempSync(join(tmpdir(), 'tandem-codehost-')) : undefined;
  const codeHost = codeHostDir
    ? await startCodeHost({
        dataDir: codeHostDir,
        port: 0,
        ...(options.codeHostCi ? { ci: localCiOptions() } : {}),
      })
    : undefined;
  const gateway = createOctokitGateway(
    codeHost
      ? {
          apiUrl: codeHost.apiUrl,
          webUrl: codeHost.url,
          appSlug: codeHost.credentials.slug,
          clientId: codeHost.credentials.clientId,
          clientSecret: codeHost.credentials.clientSecret,
          webhookSecret: codeHost.credentials.webhookSecret,
          appId: codeHost.credentials.appId,
          privateKey: codeHost.credentials.privateKey,
        }
      : {
          apiUrl: 'http://127.0.0.1:9/api/v3',
          webUrl: 'http://127.0.0.1:9',
          appSlug: 'tandem',
          clientId: 'test-client',
          clientSecret: 'test-secret',
          webhookSecret: TEST_WEBHOOK_SECRET,
        },
  );
  const defaults = loadConfig({});
  const models: ModelsConfig = { ...defaults.models, ...options.models, ...options.agents?.models };
  const late: { app?: App } = {};
  const agentsDir = options.agents ? mkdtempSync(join(tmpdir(), 'tandem-agents-')) : undefined;
  let runner: AgentRunner | RecordingRunner = new RecordingRunner();
  let sandbox: string | undefined;
  if (options.agents && agentsDir) {
    if (!codeHost) throw new Error('createTestApp: agents need the local code host (codeHost: true)');
    const runtime = await createAgentRuntime({
      db: database.db,
      database: database.url ? { kind: 'postgres', url: database.url } : { kind: 'pglite' },
      secretBox: new SecretBox(TEST_SECRET_KEY),
      logger: pino({ level: 'silent' }),
      dataDir: agentsDir,
      app: {
        apiUrl: codeHost.apiUrl,
        webUrl: codeHost.url,
        appId: codeHost.credentials.appId,
        appSlug: codeHost.credentials.slug,
        privateKey: codeHost.credentials.privateKey,
        clientId: codeHost.credentials.clientId,
        clientSecret: codeHost.credentials.clientSecret,
        webhookSecret: codeHost.credentials.webhookSecret,
      },
      models,
      agents: {
        ...defaults.agents,
        sandbox: options.agents.sandbox ?? 'auto',
        warmSandboxes: options.agents.warmSandboxes ?? defaults.agents.warmSandboxes,
        concurrency: options.agents.concurrency ?? defaults.agents.concurrency,
      },
      throttle: false,
      work: options.agents.work,
      // As serve.ts does: the app's auto-fill, bound once the app exists.
      afterCharge: (installationId) => late.app?.autoFill.check(installationId),
      sunset: options.sunset ?? null,
      prepareSandbox: options.agents.prepareSandbox,
    });
    runner = runtime.runner;
    if (runtime.kind === 'queue') await runtime.runner.start();
    sandbox = runtime.sandbox;
  }
  // Every test app has billing (the stand-in, in memory); `billing: true` also receives its webhooks.
  const billing = await startLocalStripe({ webhookRetryDelaysMs: [20, 50] });
  const app = await buildApp({
    runner,
    sandbox,
    config: {
      models,
      publicUrl: undefined,
      previewUrl: LOCAL_PREVIEW_URL,
      sessionDays: 30,
      webDist,
      admins: new Set(['ada']),
      site: defaults.site,
      sunset: options.sunset ?? null,
      party: options.party ?? null,
      ...options.edge,
    },
    database,
    secretKey: TEST_SECRET_KEY,
    logger: pino({ level: 'silent' }),
    gateway,
    appSlug: codeHost?.credentials.slug ?? 'tandem',
    // Retries in milliseconds, so a test sees a failed delivery applied on its next attempt.
    webhookQueue: { retryDelaysMs: [50, 100, 200] },
    billing: localBillingProvider(billing),
    ...(options.access === 'code-host' ? {} : { permissions: membershipPermissions(database.db) }),
  });

  late.app = app;
  if (options.billing) {
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    billing.connectProduct({ webhookUrl: `http://127.0.0.1:${port}/api/billing/webhook` });
  }
  return {
    ...app,
    runner,
    database,
    codeHost,
    billing,
    async signIn(spec) {
      const { db } = database;
      const [user] = await db
        .insert(users)
        .values({ githubId: nextGithubId++, username: spec.username, admin: spec.admin ?? false })
        .returning();
      for (const inst of spec.installations ?? []) {
        await db
          .insert(installations)
          .values({ id: inst.id, accountLogin: inst.name, accountType: 'Organization' })
          .onConflictDoNothing();
        await grantFreeCredits(db, inst.id);
        await db.insert(memberships).values({ userId: user!.id, installationId: inst.id, role: inst.role });
        for (const fullName of inst.repos ?? []) {
          await db
            .insert(repositories)
            .values({ githubId: nextGithubId++, installationId: inst.id, fullName })
            .onConflictDoNothing();
        }
      }
      const { token } = await app.sessions.create(user!.id);
      return { id: user!.id, username: user!.username, token };
    },
    async close() {
      // Deliveries in hand may still enqueue agents: stop them before the runner.
      await app.webhooks.stop();
      if (!(runner instanceof RecordingRunner)) await runner.stop();
      await billing.close();
      await app.server.close();
      await codeHost?.close();
      await database.destroy();
      rmSync(webDist, { recursive: true, force: true });
      if (codeHostDir) rmSync(codeHostDir, { recursive: true, force: true });
      if (agentsDir) rmSync(agentsDir, { recursive: true, force: true });
    },
  };
}

/**
 * Registers a fresh test app for the enclosing `describe` (created before its tests, closed
 * after) and returns a getter for it.
 */
export function useTestApp(
  kind: TestDatabaseKind = 'pglite',
  options: Parameters<typeof createTestApp>[1] = {},
): () => TestApp {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp(kind, options);
    await app.server.ready();
  });
  afterAll(async () => {
    await app?.close();
  });
  return () => {
    if (!app) throw new Error('the test app is not ready yet');
    return app;
  };
}
