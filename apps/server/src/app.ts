import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import type { AgentRunner } from '@tandem/agent';
import type { Database } from '@tandem/db';
import { registerAuthentication } from './auth/authenticate.js';
import { registerClientLimits } from './auth/client-limits.js';
import { SessionTokens } from './auth/session-tokens.js';
import { PreviewHost } from './previews/preview-host.js';
import { PreviewSettings } from './previews/preview-settings.js';
import { previewRoutes } from './routes/previews.js';
import type { Config } from './config/schema.js';
import { DEFAULT_RATE_LIMITS } from './config/rate-limits.js';
import { trustFunction } from './config/trusted-proxies.js';
import { registerErrorHandler } from './errors/error-handler.js';
import { registerCompression } from './http/compression.js';
import { FRAME_SOURCE_SLOT, registerSecurityHeaders } from './http/security-headers.js';
import { webAppScriptHashes } from './http/inline-scripts.js';
import { fillLandingPage } from './http/landing-page.js';
import { registerWebApp } from './http/web-app.js';
import { lazyRequestLogger } from './http/request-logger.js';
import { SecretBox } from './crypto/secret-box.js';
import type { CodeHostGateway } from './github/gateway.js';
import { authRoutes } from './routes/auth.js';
import { githubAuthRoutes } from './routes/github-auth.js';
import { githubWebhookRoutes } from './routes/github-webhooks.js';
import { WebhookQueue, type WebhookQueueOptions } from './services/webhook-queue.js';
import { installationRoutes } from './routes/installations.js';
import { blogRoutes } from './routes/blog.js';
import { agentRoutes } from './routes/agents.js';
import { agentCodeRoutes } from './routes/agent-code.js';
import { branchRoutes } from './routes/branches.js';
import { scriptRoutes } from './routes/scripts.js';
import { userAssetRoutes } from './routes/user-assets.js';
import { modelChoices, modelRoutes } from './routes/models.js';
import { secretRoutes } from './routes/secrets.js';
import { repositoryRoutes } from './routes/repositories.js';
import { RepositoryAccess, type PermissionSource } from './services/repositories/repository-access.js';
import { siteRoutes } from './routes/site.js';
import { blogPageMeta } from './services/blog-meta.js';
import { trackingRoutes } from './routes/tracking.js';
import { healthRoutes } from './routes/health.js';
import { userRoutes } from './routes/users.js';
import { settingsRoutes } from './routes/settings.js';
import { billingRoutes } from './routes/billing.js';
import { adminRoutes } from './routes/admin.js';
import { adminTaskRoutes } from './routes/admin-tasks.js';
import { adminInsightRoutes } from './routes/admin-insights.js';
import { partyRoutes } from './routes/party.js';
import { PartyTokens } from './auth/party-reader.js';
import { CurrentPartyAgent } from './services/party/current-party-agent.js';
import type { BillingProvider } from './billing/billing-setup.js';
import { AutoFill } from './services/billing/auto-fill.js';
import { SessionService } from './services/sessions.js';
import { PollCache } from './services/poll-cache/poll-cache.js';
import { SunsetGate } from './services/sunset-gate.js';
import { serverVersion } from './version.js';

export interface AppOptions {
  config: Pick<Config, 'publicUrl' | 'sessionDays' | 'webDist' | 'admins' | 'site' | 'models'> &
    Partial<Pick<Config, 'previewUrl' | 'trustedProxies' | 'rateLimits' | 'sunset' | 'party'>>;
  database: Database;
  secretKey: string;
  logger: Logger;
  /** The code host (GitHub, GitHub Enterprise or the local code host). */
  gateway: CodeHostGateway;
  appSlug: string;
  /** Runs agents; requests only enqueue and interrupt. */
  runner: Pick<AgentRunner, 'enqueue' | 'interrupt'>;
  /** How agent commands are isolated here, for /api/health. */
  sandbox?: string;
  /**
   * Where repository access levels come from; the code host (the gateway) unless a test without
   * one stands in for it.
   */
  permissions?: PermissionSource;
  /** Retry timing of the webhook queue (tests shorten it). */
  webhookQueue?: WebhookQueueOptions;
  /** Stripe or the local billing stand-in; without one, payment calls answer 503. */
  billing?: BillingProvider;
}

export interface App {
  server: FastifyInstance;
  sessions: SessionService;
  /** Every route registered, so tests can sweep all of them (e.g. malformed bodies → 422). */
  routes: { method: string; url: string }[];
  /** Seals secrets at rest; exposed so tests can check what routes sealed, without the key. */
  secretBox: SecretBox;
  /** Applies stored webhook deliveries; tests wait on its idle(). */
  webhooks: WebhookQueue;
  /** What the polls answer from memory; tests look at what it keeps. */
  pollCache: PollCache;
  /** Tops installations up after spends; the agent runtime calls its check() after each charge. */
  autoFill: AutoFill;
}

/** Largest JSON body accepted by default; routes taking images raise their own limit. */
export const DEFAULT_BODY_LIMIT = 2 * 1024 * 1024;

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

export async function buildApp(options: AppOptions): Promise<App> {
  const { config, database } = options;
  const sessions = new SessionService(database.db, new SessionTokens(options.secretKey), config.sessionDays);
  const previewTokens = new SessionTokens(options.secretKey, 'preview');
  // Forwarded headers count only from the configured proxies (default: none), for Fastify's
  // request.ip / protocol / host and for the preview host alike.
  const trustProxy = trustFunction(config.trustedProxies ?? { kind: 'none' });
  const rateLimits = config.rateLimits ?? DEFAULT_RATE_LIMITS;
  const webDist = config.webDist ?? defaultWebDist;
  let httpServer: Server | undefined;
  let listeningPort: number | undefined;
  const previewSettings = new PreviewSettings({
    template: config.previewUrl,
    publicUrl: config.publicUrl,
    // Asked on every request (preview hosts, the CSP): remembered once the server listens.
    listeningPort: () => {
      if (listeningPort !== undefined) return listeningPort;
      const address = httpServer?.listening ? httpServer.address() : null;
      if (typeof address === 'object' && address) listeningPort = address.port;
      return listeningPort;
    },
  });
  const previewHost = new PreviewHost({
    db: database.db,
    sessions,
    tokens: previewTokens,
    settings: previewSettings,
    logger: options.logger,
    trustProxy,
  });
  const server: FastifyInstance = Fastify({
    // Preview subdomains are answered before Fastify sees the request: none of the product's
    // routes, hooks or cookies exist on a preview origin.
    serverFactory: (handler) => {
      httpServer = createServer((req, res) => {
        const subdomain = previewHost.subdomainOf(req);
        if (subdomain) void previewHost.handle(req, res, subdomain);
        else handler(req, res);
      });
      httpServer.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        const subdomain = previewHost.subdomainOf(req);
        if (subdomain) void previewHost.upgrade(req, socket, head, subdomain);
        else socket.destroy();
      });
      return httpServer;
    },
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    // A request's child logger is made only when it writes a line (http/request-logger.ts).
    childLoggerFactory: lazyRequestLogger,
    // A path Fastify cannot decode (malformed percent-encoding) never reaches a route or the error
    // handler: answer it in the API's own error shape rather than Fastify's.
    frameworkErrors: (error, _request, reply) => {
      const bad = error.code === 'FST_ERR_BAD_URL';
      // The option's reply type has no response schema to key status codes on: use the plain one.
      void (reply as unknown as FastifyReply).status(400).send({
        detail: bad ? 'Malformed URL: the path is not valid percent-encoding' : error.message,
        code: 'bad_request',
      });
    },
  });

  const routes: App['routes'] = [];
  server.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  registerErrorHandler(server);
  // Signed cookies carry the OAuth state; the key is derived so it never equals the session key.
  await server.register(fastifyCookie, {
    secret: createHash('sha256').update(`tandem-cookie:${options.secretKey}`).digest('hex'),
  });
  // Served over TLS (directly or behind a proxy): what the public URL says.
  const secureCookies = config.publicUrl?.startsWith('https://') ?? false;
  await registerSecurityHeaders(
    server,
    {
      // RFC 6797 §7.2: no Strict-Transport-Security over plain http, where browsers ignore it.
      ...(secureCookies ? {} : { strictTransportSecurity: false }),
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...webAppScriptHashes(webDist), ...billingOrigins(options.billing, 'script')],
          // MUI (emotion) injects <style> elements at run time.
          styleSrc: ["'self'", "'unsafe-inline'"],
          // Avatars come from the code host: any https origin (GitHub), and the configured one, which
          // is plain http for the local code host.
          imgSrc: ["'self'", 'data:', 'blob:', 'https:', codeHostOrigin(options.gateway.webUrl)],
          fontSrc: ["'self'", 'data:'],
          // Cards are confirmed from the browser: at Stripe, or at the local stand-in.
          connectSrc: ["'self'", ...billingOrigins(options.billing, 'connect')],
          workerSrc: ["'self'", 'blob:'],
          // The workspace frames previews, which live on origins of their own (known once listening).
          frameSrc: ["'self'", FRAME_SOURCE_SLOT, ...billingOrigins(options.billing, 'frame')],
          frameAncestors: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
      // Chromium already keys agent clusters by origin (no document.domain); the header only asks
      // it for a process of the origin's own, and a visitor arriving from another site then waits
      // for a second renderer process (docs/decisions.md "Landing paint: no origin-keyed process
      // hint"). Previews, the one hostile neighbour, must be another site (README).
      originAgentCluster: false,
    },
    () => previewSettings.frameSource() ?? "'self'",
  );
  await registerClientLimits(server, rateLimits);
  await registerCompression(server);
  // Callback-style, like the hook below: an async hook costs a promise on every request (polls).
  server.addHook('onSend', (request, reply, _payload, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  const partyTokens = new PartyTokens(options.secretKey);
  registerAuthentication(server, sessions, { publicUrl: config.publicUrl, partyTokens });

  healthRoutes(server, { database, version: serverVersion(), sandbox: options.sandbox ?? 'not started' });
  userRoutes(server, { db: database.db });
  authRoutes(server, { sessions, secureCookies });
  const secretBox = new SecretBox(options.secretKey);
  const { gateway } = options;
  githubAuthRoutes(server, {
    db: database.db,
    gateway,
    sessions,
    secretBox,
    admins: config.admins,
    publicUrl: config.publicUrl,
    secureCookies,
    rateLimits,
  });
  const sunset = new SunsetGate(config.sunset ?? null);
  const webhooks = new WebhookQueue(
    {
      db: database.db,
      sunset,
      gateway,
      runner: options.runner,
      models: modelChoices(config.models),
      appSlug: options.appSlug,
      publicUrl: config.publicUrl,
    },
    server.log.child({ component: 'webhooks' }),
    options.webhookQueue,
  );
  // Deliveries left waiting by a restart are applied once the server is up; none start mid-close.
  server.addHook('onReady', async () => webhooks.start());
  server.addHook('onClose', async () => webhooks.stop());
  githubWebhookRoutes(server, { db: database.db, gateway, queue: webhooks });
  installationRoutes(server, {
    db: database.db,
    gateway,
    secretBox,
    admins: config.admins,
    appSlug: options.appSlug,
    site: config.site,
    sunset: sunset.sunset,
    billing: options.billing
      ? {
          mode: options.billing.mode,
          publishable_key: options.billing.publishableKey,
          local_api_url: options.billing.localApiUrl,
        }
      : null,
  });

  siteRoutes(server, { db: database.db, rateLimits });
  trackingRoutes(server, { db: database.db, rateLimits, secureCookies });
  modelRoutes(server, { models: config.models });
  const access = new RepositoryAccess(database.db, options.permissions ?? gateway);
  const pollCache = new PollCache(database, server.log.child({ component: 'poll-cache' }));
  server.addHook('onReady', async () => pollCache.start());
  server.addHook('onClose', async () => pollCache.stop());
  // Read-your-writes for the polls: a change made by a request is in the caches before its answer.
  server.addHook('onSend', (request, reply, _payload, done) => {
    if (request.method === 'GET' || request.method === 'HEAD' || reply.statusCode >= 400) return done();
    pollCache.settled().then(() => done(), done);
  });
  agentRoutes(server, {
    db: database.db,
    models: config.models,
    runner: options.runner,
    access,
    pollCache,
    sunset,
  });
  agentCodeRoutes(server, {
    db: database.db,
    reader: { webUrl: gateway.webUrl, installationClient: (id) => gateway.installationClient(id) },
  });
  userAssetRoutes(server, { db: database.db });
  const enqueue = (agentId: string) => options.runner.enqueue(agentId);
  const party = config.party
    ? new CurrentPartyAgent({
        db: database.db,
        settings: config.party,
        models: modelChoices(config.models),
        sunset,
        enqueue,
        interrupt: (agentId) => options.runner.interrupt(agentId),
      })
    : null;
  previewRoutes(server, {
    db: database.db,
    settings: previewSettings,
    tokens: previewTokens,
    partyToken: party ? async () => partyTokens.sign((await party.get()).agent.id) : undefined,
  });
  partyRoutes(server, { db: database.db, party, sunset, enqueue });
  secretRoutes(server, { db: database.db, secretBox, access });
  repositoryRoutes(server, { db: database.db, access, models: config.models });
  scriptRoutes(server, {
    db: database.db,
    access,
    models: config.models,
    runner: options.runner,
    sunset,
    reader: { webUrl: gateway.webUrl, installationClient: (id) => gateway.installationClient(id) },
  });
  branchRoutes(server, {
    db: database.db,
    access,
    reader: { installationClient: (id) => gateway.installationClient(id) },
  });
  settingsRoutes(server, { db: database.db, gateway });
  const autoFill = new AutoFill(
    database.db,
    options.billing,
    server.log.child({ component: 'auto-fill' }),
    () => sunset.buyingAllowed,
  );
  server.addHook('onClose', async () => autoFill.idle());
  billingRoutes(server, { db: database.db, billing: options.billing, autoFill, sunset });
  adminRoutes(server, { db: database.db, runner: options.runner });
  adminTaskRoutes(server, { db: database.db, runner: options.runner, webhooks });
  adminInsightRoutes(server, { db: database.db });

  await blogRoutes(server, { db: database.db });

  await registerWebApp(server, webDist, {
    pageMeta: (path, origin) => blogPageMeta(database.db, path, origin),
    landingPage: (html) => fillLandingPage(html, config.site),
  });
  return { server, sessions, routes, secretBox, webhooks, pollCache, autoFill };
}

/** What Stripe.js (real Stripe) or the local card form (the stand-in) needs the page to allow. */
function billingOrigins(
  billing: BillingProvider | undefined,
  kind: 'connect' | 'script' | 'frame',
): string[] {
  if (!billing) return [];
  if (billing.mode === 'local')
    return kind === 'connect' && billing.localApiUrl ? [new URL(billing.localApiUrl).origin] : [];
  if (kind === 'connect') return ['https://api.stripe.com'];
  if (kind === 'script') return ['https://js.stripe.com'];
  return ['https://js.stripe.com', 'https://hooks.stripe.com'];
}

/** The code host's origin for the page security policy ('self' when the URL cannot be read). */
function codeHostOrigin(webUrl: string): string {
  try {
    return new URL(webUrl).origin;
  } catch {
    return "'self'";
  }
}
