import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { WARM_MAX } from '@tandem/agent';
import { DEFAULT_HELPER_NICE, DEFAULT_PROCESS_NICE, IDLE_MEMORY_DEFAULTS } from '@tandem/process';
import {
  DEFAULT_MODEL_KEY,
  DEFAULT_SANDBOX_HOST,
  DEMO_MODEL_KEY,
  LOCAL_MODEL_PREFIX,
  MODEL_CATALOG,
  type Sunset,
} from '@tandem/shared';
import { z } from 'zod';
import { DEFAULT_RATE_LIMITS, type RateLimits } from './rate-limits.js';
import { parseSunset, sunsetEnv } from './sunset.js';
import { parseParty, partyEnv, type PartySettings } from './party.js';
import { parseTrustedProxies, type TrustedProxies } from './trusted-proxies.js';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const port = (fallback: number) =>
  z
    .string()
    .trim()
    .default(String(fallback))
    .transform((v, ctx) => {
      const n = Number(v);
      if (!/^\d+$/.test(v) || n < 0 || n > 65535) {
        ctx.addIssue({ code: 'custom', message: `must be a port number from 0 to 65535, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

const httpUrl = optionalString.refine(
  (v) => v === undefined || /^https?:\/\/[^\s]+$/.test(v),
  'must be an http(s) URL',
);

const postgresUrl = optionalString.refine(
  (v) => v === undefined || /^postgres(ql)?:\/\/.+/.test(v),
  'must be a postgres:// or postgresql:// URL',
);

/** A count of nice steps (0-19) below the server's priority. */
const niceSteps = (fallback: number) =>
  z
    .string()
    .trim()
    .default(String(fallback))
    .refine((v) => /^\d+$/.test(v) && Number(v) <= 19, 'must be a whole number from 0 to 19')
    .transform(Number);

/**
 * Every environment variable the server reads, parsed once at start-up. The README's
 * configuration table lists the same names; keep both in step.
 */
export const envSchema = z.object({
  PORT: port(8080),
  HOST: z.string().trim().min(1).default('localhost'),
  TANDEM_DATA_DIR: z.string().trim().min(1).default('.tandem'),
  DATABASE_URL: postgresUrl,
  DATABASE_POOL_SIZE: z
    .string()
    .trim()
    .default('10')
    .refine(
      (v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 200,
      'must be a whole number from 1 to 200',
    )
    .transform(Number),
  TANDEM_SECRET_KEY: optionalString.refine(
    (v) => v === undefined || v.length >= 32,
    'must be at least 32 characters (generate one with: openssl rand -hex 32)',
  ),
  TANDEM_PUBLIC_URL: optionalString.refine(
    (v) => v === undefined || /^https?:\/\/[^/]+\/?$/.test(v),
    'must be an http(s) origin such as https://tandem.example.com',
  ),
  TANDEM_SESSION_DAYS: z
    .string()
    .trim()
    .default('30')
    .refine(
      (v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 365,
      'must be a whole number of days from 1 to 365',
    )
    .transform(Number),
  TANDEM_WEB_DIST: optionalString,
  /** Peers whose X-Forwarded-* we believe: IPs / CIDRs, or a hop count; empty trusts none. */
  TANDEM_TRUSTED_PROXIES: optionalString.superRefine((v, ctx) => {
    const parsed = parseTrustedProxies(v);
    if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed });
  }),
  TANDEM_RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Comma-separated code-host logins that are Tandem product admins. */
  TANDEM_ADMINS: optionalString,
  GITHUB_API_URL: httpUrl,
  GITHUB_WEB_URL: httpUrl,
  GITHUB_APP_ID: optionalString.refine(
    (v) => v === undefined || /^\d+$/.test(v),
    'must be the numeric App ID',
  ),
  GITHUB_APP_SLUG: optionalString,
  GITHUB_PRIVATE_KEY: optionalString,
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  GITHUB_WEBHOOK_SECRET: optionalString,
  CODEHOST_PORT: port(8081),
  // The local code host's CI runs workflows on push in the agents' sandbox; off skips all runs.
  CODEHOST_CI: z.enum(['sandbox', 'off']).default('sandbox'),
  /** Real Stripe: all three set. None set: the local billing stand-in on STRIPE_LOCAL_PORT. */
  STRIPE_SECRET_KEY: optionalString.refine(
    (v) => v === undefined || /^(sk|rk)_(test|live)_\S+$/.test(v),
    'must be a Stripe secret key (sk_test_… or sk_live_…)',
  ),
  STRIPE_PUBLISHABLE_KEY: optionalString.refine(
    (v) => v === undefined || /^pk_(test|live)_\S+$/.test(v),
    'must be a Stripe publishable key (pk_test_… or pk_live_…)',
  ),
  STRIPE_WEBHOOK_SECRET: optionalString.refine(
    (v) => v === undefined || /^whsec_\S+$/.test(v),
    "must be the webhook endpoint's signing secret (whsec_…)",
  ),
  STRIPE_LOCAL_PORT: port(8082),
  TANDEM_DISCORD_URL: httpUrl,
  TANDEM_SUPPORT_EMAIL: z.string().trim().email('must be an email address').default('support@tandem.local'),
  /** "Label=https://url,Label=https://url" */
  TANDEM_SOCIAL_LINKS: optionalString.refine(
    (v) => v === undefined || v.split(',').every((pair) => /^[^=]+=https?:\/\/\S+$/.test(pair.trim())),
    'must be comma-separated Label=https://… pairs',
  ),
  TANDEM_LANDING_CLAIM: optionalString,
  TANDEM_CLOUD_HOST: z.string().trim().min(1).default('the operator of this Tandem installation'),
  TANDEM_MODEL_PROVIDERS: z.string().trim().min(1).default('Anthropic,OpenAI'),
  ...sunsetEnv,
  ...partyEnv,
  ANTHROPIC_API_KEY: optionalString,
  OPENAI_API_KEY: optionalString,
  GOOGLE_GENERATIVE_AI_API_KEY: optionalString,
  TANDEM_OPENAI_COMPATIBLE_URL: httpUrl,
  TANDEM_OPENAI_COMPATIBLE_API_KEY: optionalString,
  TANDEM_OPENAI_COMPATIBLE_MODELS: optionalString,
  TANDEM_DEFAULT_MODEL: optionalString,
  /** Test deployments only: a scripted model (docs/agent-tools.md) offered as model key 'scripted'. */
  TANDEM_SCRIPTED_MODEL_FILE: optionalString,
  /** The offline demo model: by default offered only when no model provider is configured. */
  TANDEM_DEMO_MODEL: z.enum(['on', 'off', 'auto']).default('auto'),
  TANDEM_SANDBOX: z.enum(['auto', 'bubblewrap', 'process']).default('auto'),
  TANDEM_SANDBOX_NETWORK: z.enum(['on', 'off']).default('on'),
  TANDEM_AGENT_WORKER: z.enum(['on', 'off']).default('on'),
  /** The address other servers use to reach ports served in this machine's sandboxes. */
  TANDEM_SANDBOX_HOST: z
    .string()
    .trim()
    .default(DEFAULT_SANDBOX_HOST)
    .refine((v) => /^[\w.:-]+$/.test(v), 'must be a host name or IP address'),
  /** Where previews of agents' ports are served: an origin whose host starts with {subdomain}. */
  TANDEM_PREVIEW_URL: optionalString.refine(
    (v) =>
      v === undefined ||
      /^https:\/\/\{subdomain\}\.[a-z0-9.-]+(:\d+)?\/?$/i.test(v) ||
      /^http:\/\/\{subdomain\}\.localhost(:\d+)?\/?$/i.test(v),
    'must look like https://{subdomain}.preview.example.com (plain http only for {subdomain}.localhost)',
  ),
  TANDEM_AGENT_CONCURRENCY: z
    .string()
    .trim()
    .default('4')
    .refine(
      (v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 256,
      'must be a whole number from 1 to 256',
    )
    .transform(Number),
  /** Nice steps between the event loop and V8's compiler and GC threads (@tandem/process). */
  TANDEM_V8_HELPER_NICE: niceSteps(DEFAULT_HELPER_NICE),
  /** Nice steps between the server and the processes it starts through its launcher (@tandem/process). */
  TANDEM_PROCESS_NICE: niceSteps(DEFAULT_PROCESS_NICE),
  /** How far (MB) memory grows before a quiet process gives it back; 0 never (@tandem/process). */
  TANDEM_IDLE_MEMORY_RELEASE_MB: z
    .string()
    .trim()
    .default(String(IDLE_MEMORY_DEFAULTS.growthMb))
    .refine((v) => /^\d+$/.test(v) && Number(v) <= 65536, 'must be a whole number of MB from 0 to 65536')
    .transform(Number),
  TANDEM_WARM_SANDBOXES: z
    .string()
    .trim()
    .default(String(WARM_MAX))
    .refine((v) => /^\d+$/.test(v) && Number(v) <= 1024, 'must be a whole number from 0 to 1024')
    .transform(Number),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: { kind: 'postgres'; url: string; poolSize: number } | { kind: 'pglite'; dataDir: string };
  secretKey: string | undefined;
  publicUrl: string | undefined;
  sessionDays: number;
  webDist: string | undefined;
  /** Whose X-Forwarded-* headers count (client IP, protocol, host). */
  trustedProxies: TrustedProxies;
  /** Per-client limits on unauthenticated writes; false turns them off. */
  rateLimits: RateLimits | false;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** How many nice steps below the event loop V8's helper threads run; 0 leaves them (main.ts). */
  helperThreadNice: number;
  /**
   * How many nice steps below the server the processes it starts through its launcher run (git,
   * clones, setup scripts, sandbox networks, the local code host's git); 0 leaves them level.
   */
  processNice: number;
  /**
   * How far (MB) the process's resident memory must grow since it last gave memory back before a
   * quiet spell gives it back again with a full garbage collection; 0 never does (main.ts).
   */
  idleMemoryReleaseMb: number;
  /** Lower-cased logins of product admins. */
  admins: ReadonlySet<string>;
  github: GitHubConfig;
  billing: BillingConfig;
  site: SiteConfig;
  /** Sunset mode (DESIGN.md §9); null when the deployment is not winding down. */
  sunset: Sunset | null;
  /** The public party agent (TANDEM_PARTY_*); null when the deployment has none. */
  party: PartySettings | null;
  models: ModelsConfig;
  agents: AgentsConfig;
  /**
   * The preview origin template, e.g. `https://{subdomain}.preview.example.com`; undefined when
   * previews are off (a public URL that is not local and no TANDEM_PREVIEW_URL).
   */
  previewUrl: string | undefined;
}

export interface AgentsConfig {
  /** 'auto' uses bubblewrap when it works here, else plain child processes. */
  sandbox: 'auto' | 'bubblewrap' | 'process';
  network: boolean;
  concurrency: number;
  /** Paused agents' sandboxes kept warm at most per process (the oldest ended first). */
  warmSandboxes: number;
  /** Whether `serve` also runs agents; off leaves them to `worker` processes (Postgres only). */
  worker: boolean;
  /** How other servers reach this machine's sandbox ports (previews). */
  sandboxHost: string;
}

export interface ModelsConfig {
  anthropicApiKey: string | undefined;
  openaiApiKey: string | undefined;
  googleApiKey: string | undefined;
  openaiCompatible: { url: string; apiKey: string | undefined; models: string[] } | undefined;
  defaultModel: string;
  scriptedModelFile: string | undefined;
  /** The offline demo model (key `demo`) is offered. */
  demoModel: boolean;
}

export interface SiteConfig {
  discordUrl: string | null;
  supportEmail: string;
  socialLinks: { label: string; url: string }[];
  landingClaim: string | null;
  cloudHost: string;
  modelProviders: string[];
}

export interface GitHubAppConfig {
  apiUrl: string;
  webUrl: string;
  appId: number;
  appSlug: string;
  privateKey: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
}

/**
 * `external`: a real GitHub (or GitHub Enterprise) App. `local`: the embedded local code host,
 * started beside the server, whose App credentials are generated into the data dir. Either way the
 * product talks to it through the same client; only these URLs and credentials differ.
 */
export type GitHubConfig =
  ({ kind: 'external' } & GitHubAppConfig) | { kind: 'local'; codehostPort: number; codehostCi: boolean };

/**
 * `stripe`: real Stripe with the account's keys. `local`: the embedded billing stand-in
 * (apps/server/src/billing/local-stripe), started beside the server with keys of its own.
 */
export type BillingConfig =
  | { kind: 'stripe'; secretKey: string; publishableKey: string; webhookSecret: string }
  | { kind: 'local'; port: number };

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws a ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(String(issue.path[0] ?? 'environment'), issue.message);
  }
  const e = parsed.data;
  const sunset = parseSunset(e);
  if (Array.isArray(sunset)) throw new ConfigError(sunset[0], sunset[1]);
  const dataDir = resolve(cwd, e.TANDEM_DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: resolve(dataDir, 'pglite') },
    secretKey: e.TANDEM_SECRET_KEY,
    publicUrl: e.TANDEM_PUBLIC_URL?.replace(/\/$/, ''),
    sessionDays: e.TANDEM_SESSION_DAYS,
    webDist: e.TANDEM_WEB_DIST ? resolve(cwd, e.TANDEM_WEB_DIST) : undefined,
    trustedProxies: parseTrustedProxies(e.TANDEM_TRUSTED_PROXIES) as TrustedProxies,
    rateLimits: e.TANDEM_RATE_LIMITS === 'on' ? DEFAULT_RATE_LIMITS : false,
    logLevel: e.LOG_LEVEL,
    helperThreadNice: e.TANDEM_V8_HELPER_NICE,
    processNice: e.TANDEM_PROCESS_NICE,
    idleMemoryReleaseMb: e.TANDEM_IDLE_MEMORY_RELEASE_MB,
    admins: new Set(
      (e.TANDEM_ADMINS ?? (e.GITHUB_API_URL ? '' : 'ada'))
        .split(',')
        .map((login) => login.trim().toLowerCase())
        .filter(Boolean),
    ),
    github: githubConfig(e, cwd),
    billing: billingConfig(e),
    models: modelsConfig(e, cwd),
    agents: {
      sandbox: e.TANDEM_SANDBOX,
      network: e.TANDEM_SANDBOX_NETWORK === 'on',
      concurrency: e.TANDEM_AGENT_CONCURRENCY,
      warmSandboxes: e.TANDEM_WARM_SANDBOXES,
      worker: e.TANDEM_AGENT_WORKER === 'on',
      sandboxHost: e.TANDEM_SANDBOX_HOST,
    },
    previewUrl: previewUrlTemplate(e),
    sunset,
    party: parseParty(e),
    site: {
      discordUrl: e.TANDEM_DISCORD_URL ?? null,
      supportEmail: e.TANDEM_SUPPORT_EMAIL,
      socialLinks: (e.TANDEM_SOCIAL_LINKS ?? '')
        .split(',')
        .filter((pair) => pair.includes('='))
        .map((pair) => {
          const [label = '', ...url] = pair.trim().split('=');
          return { label: label.trim(), url: url.join('=').trim() };
        }),
      landingClaim: e.TANDEM_LANDING_CLAIM ?? null,
      cloudHost: e.TANDEM_CLOUD_HOST,
      modelProviders: e.TANDEM_MODEL_PROVIDERS.split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    },
  };
}

/** The local default: browsers resolve *.localhost to this machine on their own. */
export const LOCAL_PREVIEW_URL = 'http://{subdomain}.localhost:{port}';

/**
 * Without TANDEM_PREVIEW_URL a local server previews on `{subdomain}.localhost`, which browsers
 * resolve to this machine by themselves and treat as a site of its own. A server with a real
 * public address needs a wildcard domain of its own, so there is no default for it.
 */
function previewUrlTemplate(e: z.infer<typeof envSchema>): string | undefined {
  if (e.TANDEM_PREVIEW_URL) return e.TANDEM_PREVIEW_URL.replace(/\/$/, '');
  const publicHost = e.TANDEM_PUBLIC_URL ? new URL(e.TANDEM_PUBLIC_URL).hostname : 'localhost';
  if (!['localhost', '127.0.0.1', '[::1]'].includes(publicHost)) return undefined;
  // {port}: the port this server ends up listening on (PORT may be 0).
  return LOCAL_PREVIEW_URL;
}

function modelsConfig(e: z.infer<typeof envSchema>, cwd: string): ModelsConfig {
  const scriptedModelFile = e.TANDEM_SCRIPTED_MODEL_FILE
    ? resolve(cwd, e.TANDEM_SCRIPTED_MODEL_FILE)
    : undefined;
  if (scriptedModelFile && !existsSync(scriptedModelFile)) {
    throw new ConfigError(
      'TANDEM_SCRIPTED_MODEL_FILE',
      `points at ${scriptedModelFile}, which does not exist`,
    );
  }
  const localModels = (e.TANDEM_OPENAI_COMPATIBLE_MODELS ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  if (localModels.length && !e.TANDEM_OPENAI_COMPATIBLE_URL) {
    throw new ConfigError('TANDEM_OPENAI_COMPATIBLE_MODELS', 'needs TANDEM_OPENAI_COMPATIBLE_URL to be set');
  }
  // A provider of real models; the scripted test model is not one.
  const hasProvider = Boolean(
    e.ANTHROPIC_API_KEY ||
    e.OPENAI_API_KEY ||
    e.GOOGLE_GENERATIVE_AI_API_KEY ||
    e.TANDEM_OPENAI_COMPATIBLE_URL,
  );
  const demoModel = e.TANDEM_DEMO_MODEL === 'on' || (e.TANDEM_DEMO_MODEL === 'auto' && !hasProvider);
  const known = new Set([
    ...(demoModel ? [DEMO_MODEL_KEY] : []),
    ...MODEL_CATALOG.map((m) => m.key),
    ...localModels.map((m) => `${LOCAL_MODEL_PREFIX}${m}`),
    ...(scriptedModelFile ? ['scripted'] : []),
  ]);
  // Without any provider the demo model is the only one that runs: it is the default then.
  const defaultModel =
    e.TANDEM_DEFAULT_MODEL ?? (demoModel && !hasProvider ? DEMO_MODEL_KEY : DEFAULT_MODEL_KEY);
  if (!known.has(defaultModel)) {
    throw new ConfigError(
      'TANDEM_DEFAULT_MODEL',
      `must be one of ${[...known].join(', ')}, got "${defaultModel}"`,
    );
  }
  return {
    anthropicApiKey: e.ANTHROPIC_API_KEY,
    openaiApiKey: e.OPENAI_API_KEY,
    googleApiKey: e.GOOGLE_GENERATIVE_AI_API_KEY,
    openaiCompatible: e.TANDEM_OPENAI_COMPATIBLE_URL
      ? {
          url: e.TANDEM_OPENAI_COMPATIBLE_URL,
          apiKey: e.TANDEM_OPENAI_COMPATIBLE_API_KEY,
          models: localModels,
        }
      : undefined,
    defaultModel,
    scriptedModelFile,
    demoModel,
  };
}

function githubConfig(e: z.infer<typeof envSchema>, cwd: string): GitHubConfig {
  if (!e.GITHUB_API_URL)
    return { kind: 'local', codehostPort: e.CODEHOST_PORT, codehostCi: e.CODEHOST_CI === 'sandbox' };
  const required = (name: keyof typeof e): string => {
    const value = e[name];
    if (typeof value !== 'string' || value === '')
      throw new ConfigError(name, 'is required when GITHUB_API_URL is set');
    return value;
  };
  const apiUrl = e.GITHUB_API_URL.replace(/\/$/, '');
  return {
    kind: 'external',
    apiUrl,
    webUrl: (e.GITHUB_WEB_URL ?? defaultWebUrl(apiUrl)).replace(/\/$/, ''),
    appId: Number(required('GITHUB_APP_ID')),
    appSlug: required('GITHUB_APP_SLUG'),
    privateKey: readPrivateKey(required('GITHUB_PRIVATE_KEY'), cwd),
    clientId: required('GITHUB_CLIENT_ID'),
    clientSecret: required('GITHUB_CLIENT_SECRET'),
    webhookSecret: required('GITHUB_WEBHOOK_SECRET'),
  };
}

function billingConfig(e: z.infer<typeof envSchema>): BillingConfig {
  const keys = {
    STRIPE_SECRET_KEY: e.STRIPE_SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: e.STRIPE_PUBLISHABLE_KEY,
    STRIPE_WEBHOOK_SECRET: e.STRIPE_WEBHOOK_SECRET,
  };
  const missing = Object.entries(keys).filter(([, value]) => value === undefined);
  if (missing.length === 3) return { kind: 'local', port: e.STRIPE_LOCAL_PORT };
  if (missing.length) {
    throw new ConfigError(
      missing[0]![0],
      'is required when any STRIPE_* key is set (real Stripe needs all three)',
    );
  }
  if (e.STRIPE_SECRET_KEY!.split('_')[1] !== e.STRIPE_PUBLISHABLE_KEY!.split('_')[1]) {
    throw new ConfigError(
      'STRIPE_PUBLISHABLE_KEY',
      'must be of the same mode (test or live) as STRIPE_SECRET_KEY',
    );
  }
  return {
    kind: 'stripe',
    secretKey: e.STRIPE_SECRET_KEY!,
    publishableKey: e.STRIPE_PUBLISHABLE_KEY!,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
  };
}

/** api.github.com → github.com; GitHub Enterprise's https://host/api/v3 → https://host. */
function defaultWebUrl(apiUrl: string): string {
  if (/^https:\/\/api\.github\.com$/i.test(apiUrl)) return 'https://github.com';
  return apiUrl.replace(/\/api\/v3$/, '');
}

/** The PEM itself (newlines may be written as \\n in env files) or a path to the .pem file. */
function readPrivateKey(value: string, cwd: string): string {
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  const path = resolve(cwd, value);
  if (!existsSync(path)) {
    throw new ConfigError(
      'GITHUB_PRIVATE_KEY',
      'must be a PEM private key or the path of a .pem file that exists',
    );
  }
  return readFileSync(path, 'utf8');
}
