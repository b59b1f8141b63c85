import { openDatabase } from '@tandem/db';
import { ensureAppCredentials } from '@tandem/codehost';
import { launcher } from '@tandem/process';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createAgentRuntime } from './agents/runtime-setup.js';
import { resolveSecretKey } from './auth/secret-key.js';
import { ConfigError, type Config, type GitHubAppConfig } from './config/schema.js';
import { SecretBox } from './crypto/secret-box.js';
import { stripeClient } from './billing/billing-setup.js';
import { AutoFill } from './services/billing/auto-fill.js';

export interface RunningWorker {
  close(): Promise<void>;
}

/**
 * The GitHub App the worker acts as: the configured one, or the local code host's generated
 * credentials (read from the data dir it shares with the `serve` process that runs that host).
 */
function workerApp(config: Config): GitHubAppConfig {
  if (config.github.kind === 'external') return config.github;
  const credentials = ensureAppCredentials(join(config.dataDir, 'codehost'));
  const url = `http://${config.host}:${config.github.codehostPort}`;
  return {
    apiUrl: `${url}/api/v3`,
    webUrl: url,
    appId: credentials.appId,
    appSlug: credentials.slug,
    privateKey: credentials.privateKey,
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
    webhookSecret: credentials.webhookSecret,
  };
}

/** `worker`: runs queued agents against the shared Postgres; start as many as you like. */
export async function startWorker(config: Config, logger: Logger): Promise<RunningWorker> {
  if (config.database.kind !== 'postgres') {
    throw new ConfigError(
      'DATABASE_URL',
      'is not set: workers share one Postgres (with the embedded database, agents run inside `serve`)',
    );
  }
  // Before anything starts a process: git, clones and sandbox plumbing below the worker's threads.
  launcher.lowerPriority(config.processNice);
  const database = await openDatabase(config.database);
  try {
    // Auto-fill after this worker's charges needs a Stripe it can reach: real Stripe only (the local
    // stand-in lives in the `serve` process; its spends are checked there).
    const autoFill =
      config.billing.kind === 'stripe'
        ? new AutoFill(
            database.db,
            {
              mode: 'stripe',
              stripe: stripeClient(config.billing.secretKey),
              publishableKey: config.billing.publishableKey,
              webhookSecret: config.billing.webhookSecret,
              localApiUrl: null,
            },
            logger.child({ component: 'auto-fill' }),
          )
        : undefined;
    const runtime = await createAgentRuntime({
      db: database.db,
      database: config.database,
      secretBox: new SecretBox(resolveSecretKey(config.secretKey, config.dataDir)),
      logger,
      dataDir: config.dataDir,
      app: workerApp(config),
      models: config.models,
      agents: config.agents,
      work: true,
      afterCharge: autoFill ? (installationId) => autoFill.check(installationId) : undefined,
      sunset: config.sunset,
    });
    await runtime.runner.start();
    logger.info({ sandbox: runtime.sandbox }, 'agent worker started');
    return {
      close: async () => {
        await runtime.runner.stop();
        await autoFill?.idle();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
