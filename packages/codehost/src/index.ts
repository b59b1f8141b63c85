import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { ensureAppCredentials, type AppCredentials } from './credentials.js';
import { Host } from './host.js';
import { appPublicKey, type Context } from './rest/context.js';
import { Shapes } from './rest/shapes.js';
import { seed } from './seed/seed.js';
import { createCodeHostServer } from './server.js';
import { WebhookSender } from './webhooks/sender.js';
import { RateLimits, type SimulatedLimit } from './rest/rate-limits.js';
import { LocalCi, type LocalCiOptions } from './ci/local-ci.js';

export { ensureAppCredentials, type AppCredentials } from './credentials.js';
export { TEMPLATE_REPO } from './seed/seed.js';
export type { SimulatedLimit } from './rest/rate-limits.js';
export type { LocalCiOptions } from './ci/local-ci.js';
export {
  processRunner,
  type CiCommand,
  type CiCommandResult,
  type CiCommandRunner,
} from './ci/command-runner.js';

export interface CodeHostOptions {
  /** Bare repositories and the store live here; everything survives a restart. */
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  publicUrl?: string;
  /** Where signed webhook deliveries go; unset means none are sent (they are still logged). */
  webhookUrl?: string;
  /** Where the install page sends the user back to, with installation_id and setup_action. */
  setupUrl?: string;
  seed?: boolean;
  logger?: Logger;
  /** Back-off before each webhook retry (tests shorten it). */
  webhookRetryDelaysMs?: number[];
  /**
   * The local CI: runs workflows' `run:` steps on push through `ci.runner` (the product injects
   * its bubblewrap sandbox). Unset: no runs are made.
   */
  ci?: LocalCiOptions;
}

export interface RunningCodeHost {
  /** Web base URL: OAuth, git and HTML pages. */
  url: string;
  /** REST base URL (GitHub Enterprise layout). */
  apiUrl: string;
  graphqlUrl: string;
  credentials: AppCredentials;
  close(): Promise<void>;
  /** Sets where webhooks go and where the install page returns to, once the product is listening. */
  connectProduct(options: { webhookUrl?: string; setupUrl?: string }): void;
  /** Resolves once queued webhook deliveries are done. */
  webhooksIdle(): Promise<void>;
  issueInstallationToken(installationId: number): Promise<string>;
  issueUserToken(login: string): Promise<string>;
  /** Makes the next REST requests meet a primary or secondary rate limit (tests); undefined clears. */
  simulateRateLimit(limit: SimulatedLimit | undefined): void;
  /** How many REST requests were answered with a (simulated) rate limit. */
  rateLimitedResponses(): number;
  /** Resolves once the local CI has made and finished every run pushes asked for (tests). */
  ciIdle(): Promise<void>;
}

/** Starts the local GitHub-compatible code host (seeded, listening) — see DESIGN §6. */
export async function startCodeHost(options: CodeHostOptions): Promise<RunningCodeHost> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const credentials = ensureAppCredentials(options.dataDir);
  const host = new Host(options.dataDir, credentials);
  if (options.seed !== false) await seed(host);

  // The URL is only known after listening when the port is 0, so the context is filled in after.
  const webhooks = new WebhookSender({
    url: options.webhookUrl,
    secret: credentials.webhookSecret,
    store: host.store,
    logger,
    appId: credentials.appId,
    ...(options.webhookRetryDelaysMs ? { retryDelaysMs: options.webhookRetryDelaysMs } : {}),
  });
  const ctx: Context = {
    host,
    webhooks,
    appPublicKey: appPublicKey(credentials.privateKey),
    setupUrl: options.setupUrl,
    shapes: new Shapes(host),
    rateLimits: new RateLimits(),
  };
  const ci = options.ci ? new LocalCi(ctx, options.ci, logger) : undefined;
  ctx.ci = ci;
  const server = await createCodeHostServer(ctx, logger);
  await server.listen({ port: options.port, host: options.host ?? '127.0.0.1' });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = (options.publicUrl ?? `http://localhost:${port}`).replace(/\/$/, '');
  // Handlers hold this same Shapes object, so every URL they build uses the real address.
  ctx.shapes.setUrls(url, `${url}/api/v3`);

  return {
    url,
    apiUrl: `${url}/api/v3`,
    graphqlUrl: `${url}/api/graphql`,
    credentials,
    async close() {
      await ci?.close();
      webhooks.close();
      await server.close();
    },
    connectProduct({ webhookUrl, setupUrl }) {
      if (webhookUrl !== undefined) webhooks.setUrl(webhookUrl);
      if (setupUrl !== undefined) ctx.setupUrl = setupUrl;
    },
    webhooksIdle: () => webhooks.idle(),
    issueInstallationToken: async (id) => host.issueInstallationToken(id).token,
    issueUserToken: async (login) => host.issueUserToken(login).token,
    simulateRateLimit: (limit) => ctx.rateLimits.simulate(limit),
    rateLimitedResponses: () => ctx.rateLimits.limited,
    ciIdle: async () => ci?.idle(),
  };
}

export function defaultCodeHostDataDir(tandemDataDir: string): string {
  return join(tandemDataDir, 'codehost');
}
