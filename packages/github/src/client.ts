import { createHash } from 'node:crypto';
import type { Octokit as CoreOctokit, OctokitOptions } from '@octokit/core';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import { octokitLog, type ClientLogger } from './logger.js';
import { retryOptions, throttleOptions } from './rate-limits.js';

export type { ClientLogger } from './logger.js';

/** Every call in this package takes a plain Octokit, so callers may pass any configured one. */
export type GitHubClient = Octokit;

/** Fetches a token per request, e.g. a cached installation token that renews itself. */
export type TokenSource = () => Promise<string>;

export interface GitHubClientOptions {
  /** REST root: https://api.github.com, https://HOST/api/v3 (GitHub Enterprise, local code host). */
  baseUrl: string;
  /** A token, a source of tokens, or nothing for anonymous reads. */
  auth?: string | TokenSource | undefined;
  logger?: ClientLogger | undefined;
  /** Concurrency and spacing limits (default true). Rate-limit retries happen either way. */
  throttle?: boolean;
  /** Multiplies back-off and rate-limit waits; 1 (the default) in production, tiny in tests. */
  retryDelayScale?: number;
  userAgent?: string;
  /**
   * Requests with the same key share throttling limits. GitHub limits each credential, so the
   * default is one key per base URL and token; give a stable key when `auth` is a TokenSource.
   */
  throttleKey?: string;
  /** Per attempt, so a hung connection becomes a retryable failure (default 60 s). */
  requestTimeoutMs?: number;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** `https://api.github.com` → `…/graphql`; a GHE-style `…/api/v3` → `…/api/graphql`. */
export function graphqlUrl(baseUrl: string): string {
  const base = trimSlash(baseUrl);
  return /\/api\/v3$/.test(base) ? base.replace(/\/api\/v3$/, '/api/graphql') : `${base}/graphql`;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

interface TransportOptions {
  tokenSource?: TokenSource;
  requestTimeoutMs: number;
}

/**
 * Innermost hooks, so they run again on every retry: a fresh token from the token source and a
 * fresh per-attempt timeout (Octokit has none; a hung code host would stall an agent for ever).
 * Hook chains hand every layer the same endpoint object, so it is changed in place; but its
 * `request` options object can be shared by every request of the client, so the signal goes
 * into a copy of it. The caller's own abort signal is remembered per endpoint (a retry must not
 * take the expired timeout of the attempt before for the caller's), and signals made here are
 * never taken for a caller's: otherwise a request long after another inherited its old timeout
 * and failed at once.
 */
function transport(octokit: CoreOctokit, options: OctokitOptions) {
  const { tokenSource, requestTimeoutMs } = options.transport as TransportOptions;
  const callerSignals = new WeakMap<object, AbortSignal | undefined>();
  const ours = new WeakSet<AbortSignal>();
  octokit.hook.wrap('request', async (request, endpoint) => {
    const settings = endpoint.request ?? {};
    if (!callerSignals.has(endpoint)) {
      const given = settings.signal ?? undefined;
      callerSignals.set(endpoint, given && !ours.has(given) ? given : undefined);
    }
    const callerSignal = callerSignals.get(endpoint);
    const timeout = AbortSignal.timeout(requestTimeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    ours.add(signal);
    endpoint.request = { ...settings, signal };
    if (tokenSource) endpoint.headers.authorization = `token ${await tokenSource()}`;
    return request(endpoint);
  });
}

/**
 * GraphQL goes to `{root}/graphql` with the root as base URL, whatever the host's layout. Octokit
 * would otherwise call a GHE host with a full `…/api/graphql` URL, which the throttling plugin does
 * not recognise as GraphQL: the rate-limit rules would then differ between github.com and the rest.
 */
function graphqlEndpoint(octokit: CoreOctokit, options: OctokitOptions) {
  const root = graphqlUrl(String(options.baseUrl)).replace(/\/graphql$/, '');
  return { graphql: octokit.graphql.defaults({ baseUrl: root }) };
}

// Order matters: earlier plugins' hooks sit closer to the network (transport runs per attempt,
// retry inside throttling, so a rate limit is retried once by throttling and never by retry).
const GitHubOctokit = Octokit.plugin(transport, retry, throttling, graphqlEndpoint);

/** Options for building an Octokit with a custom auth strategy (used by GitHub App auth). */
export interface ClientAuth {
  authStrategy?: unknown;
  auth?: unknown;
  tokenSource?: TokenSource;
  throttleKey: string;
}

/** Builds the client; `createGitHubClient` and the App auth provider both come through here. */
export function buildClient(
  options: Omit<GitHubClientOptions, 'auth' | 'throttleKey'>,
  auth: ClientAuth,
): GitHubClient {
  const baseUrl = trimSlash(options.baseUrl);
  const delayScale = options.retryDelayScale ?? 1;
  if (!(delayScale > 0)) throw new Error('retryDelayScale must be a positive number');
  const limits = {
    throttle: options.throttle ?? true,
    delayScale,
    key: auth.throttleKey,
    logger: options.logger,
  };
  const transportOptions: TransportOptions = {
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    ...(auth.tokenSource ? { tokenSource: auth.tokenSource } : {}),
  };
  return new GitHubOctokit({
    baseUrl,
    userAgent: options.userAgent ?? 'tandem',
    log: octokitLog(options.logger),
    ...(auth.authStrategy ? { authStrategy: auth.authStrategy } : {}),
    ...(auth.auth ? { auth: auth.auth } : {}),
    transport: transportOptions,
    retry: retryOptions(limits),
    throttle: throttleOptions(limits),
  });
}

/**
 * The one code-host client: Octokit with workspace §4's retry rule and §9's throttle limits. Only
 * the base URL and credentials differ between github.com, GitHub Enterprise and the local host.
 */
export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  const { auth, throttleKey, ...rest } = options;
  const baseUrl = trimSlash(options.baseUrl);
  if (typeof auth === 'function') {
    if (!throttleKey) throw new Error('throttleKey is required when auth is a token source');
    return buildClient(rest, { tokenSource: auth, throttleKey });
  }
  return buildClient(rest, {
    ...(auth ? { auth } : {}),
    throttleKey: throttleKey ?? `${baseUrl} ${auth ? fingerprint(auth) : 'anonymous'}`,
  });
}

/** A short, non-reversible name for a token, so limiter keys never hold the secret itself. */
function fingerprint(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 16);
}
