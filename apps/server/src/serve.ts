import type { AgentRunner } from '@tandem/agent';
import { openDatabase, type Database } from '@tandem/db';
import { launcher } from '@tandem/process';
import type { Logger } from 'pino';
import { buildApp, type App } from './app.js';
import { resolveSecretKey } from './auth/secret-key.js';
import type { Config } from './config/schema.js';
import { setUpCodeHost, type CodeHostSetup } from './github/code-host-setup.js';
import { setUpBilling, type BillingSetup } from './billing/billing-setup.js';
import { ensureWelcomePost } from './services/blog.js';
import { createAgentRuntime } from './agents/runtime-setup.js';
import { SecretBox } from './crypto/secret-box.js';

export interface RunningServer {
  app: App;
  database: Database;
  url: string;
  /** The embedded local code host's URL, when it runs. */
  codeHostUrl: string | undefined;
  /** The code host this server talks to (benchmarks sign users in through it without a browser). */
  codeHost: CodeHostSetup;
  /** Stripe or the embedded billing stand-in. */
  billing: BillingSetup;
  /** Benchmarks wait on it for work a run leaves going (a sandbox still being prepared). */
  runner: Pick<AgentRunner, 'idle'>;
  close(): Promise<void>;
}

/** Opens the database (applying migrations), builds the app and listens. */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  // Before anything starts a process: git, clones and sandbox plumbing below the server's threads.
  launcher.lowerPriority(config.processNice);
  const database = await openDatabase(config.database);
  let codeHost: CodeHostSetup | undefined;
  let billing: BillingSetup | undefined;
  try {
    if (database.kind === 'postgres' && !config.secretKey) {
      logger.warn('TANDEM_SECRET_KEY is not set: sessions will not be valid across several servers');
    }
    const secretKey = resolveSecretKey(config.secretKey, config.dataDir);
    await ensureWelcomePost(database.db);
    codeHost = await setUpCodeHost(config, logger);
    billing = await setUpBilling(config, logger);
    // The app (and its auto-fill) exists only after the runtime: bound late.
    const late: { app?: App } = {};
    const runtime = await createAgentRuntime({
      db: database.db,
      database: config.database.kind === 'postgres' ? config.database : { kind: 'pglite' },
      secretBox: new SecretBox(secretKey),
      logger,
      dataDir: config.dataDir,
      app: codeHost.app,
      models: config.models,
      agents: config.agents,
      afterCharge: (installationId) => late.app?.autoFill.check(installationId),
      sunset: config.sunset,
    });
    const app = await buildApp({
      runner: runtime.runner,
      sandbox: runtime.sandbox,
      config,
      database,
      secretKey,
      logger,
      gateway: codeHost.gateway,
      appSlug: codeHost.app.appSlug,
      billing: billing.provider,
    });
    late.app = app;
    // Before listening: the queue runner must be ready when the first request enqueues a run.
    await runtime.runner.start();
    await app.server.listen({ port: config.port, host: config.host });
    const address = app.server.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = config.publicUrl ?? `http://localhost:${port}`;
    // Only now is the product's port known: tell the local code host where to deliver.
    codeHost.local?.connectProduct({
      webhookUrl: `http://127.0.0.1:${port}/api/github/webhooks`,
      setupUrl: `${url}/installations`,
    });
    billing.local?.connectProduct({ webhookUrl: `http://127.0.0.1:${port}/api/billing/webhook` });
    const local = codeHost.local;
    const localBilling = billing.local;
    let closing: Promise<void> | undefined;
    return {
      app,
      database,
      url,
      codeHostUrl: local?.url,
      codeHost,
      billing,
      runner: runtime.runner,
      close: () => {
        closing ??= app.server
          .close()
          .then(() => runtime.runner.stop())
          .then(() => local?.close())
          .then(() => localBilling?.close())
          .then(() => database.close());
        return closing;
      },
    };
  } catch (error) {
    await codeHost?.local?.close();
    await billing?.local?.close();
    await database.close();
    throw error;
  }
}
