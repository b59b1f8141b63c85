import { createPublicKey, type KeyObject } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { jwtVerify } from 'jose';
import type { CiHandle } from '../ci/ci-handle.js';
import type { Actor, Host } from '../host.js';
import type { HostRepo } from '../store/types.js';
import type { WebhookSender } from '../webhooks/sender.js';
import type { RateLimits } from './rate-limits.js';
import type { Shapes } from './shapes.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Context {
  host: Host;
  shapes: Shapes;
  webhooks: WebhookSender;
  appPublicKey: KeyObject;
  setupUrl: string | undefined;
  rateLimits: RateLimits;
  /** The local CI; absent when the code host was started without one. */
  ci?: CiHandle;
}

export function appPublicKey(privateKeyPem: string): KeyObject {
  return createPublicKey(privateKeyPem);
}

/** The credential in Authorization: `token X`, `Bearer X`, or Basic with the token as password. */
export function credentialOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme = '', value = ''] = header.split(/\s+/, 2);
  if (/^(token|bearer)$/i.test(scheme)) return value;
  if (/^basic$/i.test(scheme)) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    return decoded.slice(decoded.indexOf(':') + 1) || undefined;
  }
  return undefined;
}

/** Who is calling; a credential that is present but unknown is a 401, like GitHub's 'Bad credentials'. */
export function actorOf(request: FastifyRequest, host: Host): Actor {
  const credential = credentialOf(request);
  if (!credential) return { kind: 'anonymous' };
  const actor = host.actorForToken(credential);
  if (!actor) throw new HttpError(401, 'Bad credentials');
  return actor;
}

export function requireUserActor(request: FastifyRequest, host: Host) {
  const actor = actorOf(request, host);
  if (actor.kind !== 'user') throw new HttpError(401, 'Requires authentication');
  return actor;
}

/** Verifies an App JWT (RS256, iss = App id) the way GitHub does. */
export async function requireApp(request: FastifyRequest, ctx: Context): Promise<void> {
  const credential = credentialOf(request);
  if (!credential) throw new HttpError(401, 'A JSON web token could not be decoded');
  try {
    const { payload } = await jwtVerify(credential, ctx.appPublicKey, { algorithms: ['RS256'] });
    if (
      String(payload.iss) !== String(ctx.host.credentials.appId) &&
      payload.iss !== ctx.host.credentials.clientId
    ) {
      throw new Error('wrong issuer');
    }
  } catch {
    throw new HttpError(401, "'Issuer' claim ('iss') must be an Integer");
  }
}

/** The repository, if this caller may read it; GitHub hides what you cannot see behind a 404. */
export function readableRepo(
  request: FastifyRequest,
  ctx: Context,
  owner: string,
  name: string,
): { repo: HostRepo; actor: Actor } {
  const actor = actorOf(request, ctx.host);
  const repo = ctx.host.repo(owner, name);
  if (!repo || !ctx.host.canRead(actor, repo)) throw new HttpError(404, 'Not Found');
  return { repo, actor };
}

export function writableRepo(request: FastifyRequest, ctx: Context, owner: string, name: string) {
  const found = readableRepo(request, ctx, owner, name);
  if (!ctx.host.canWrite(found.actor, found.repo))
    throw new HttpError(403, 'Resource not accessible by integration');
  return found;
}

export function pageParams(query: unknown): { page: number; perPage: number } {
  const q = (query ?? {}) as Record<string, string | undefined>;
  const page = Math.max(1, Number(q.page) || 1);
  const perPage = Math.min(100, Math.max(1, Number(q.per_page) || 30));
  return { page, perPage };
}

/** Slices a list as GitHub pages it, with the `Link` header Octokit's paginate follows. */
export function paginate<T>(
  request: FastifyRequest,
  items: T[],
  setHeader: (name: string, value: string) => void,
  ctx: Context,
): T[] {
  const { page, perPage } = pageParams(request.query);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  if (page < last) {
    const url = new URL(request.url, ctx.shapes.apiUrl.replace(/\/api\/v3$/, ''));
    const link = (p: number) => {
      url.searchParams.set('page', String(p));
      url.searchParams.set('per_page', String(perPage));
      return `${ctx.shapes.webUrl}${url.pathname}${url.search}`;
    };
    setHeader('link', `<${link(page + 1)}>; rel="next", <${link(last)}>; rel="last"`);
  }
  return items.slice((page - 1) * perPage, page * perPage);
}
