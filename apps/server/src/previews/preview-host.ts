import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Db } from '@tandem/db';
import { PREVIEW_TOKEN_TTL_MS } from '@tandem/shared';
import type { Logger } from 'pino';
import type { SessionTokens } from '../auth/session-tokens.js';
import { forwardedFor, forwardedHost, type TrustFunction } from '../config/trusted-proxies.js';
import { PREVIEW_MEMBERS_ONLY, previewTarget, type PreviewTarget } from '../services/previews.js';
import type { AuthenticatedUser, SessionService } from '../services/sessions.js';
import {
  BRIDGE_SCRIPT,
  bridgePage,
  frameScript,
  messagePage,
  PREVIEW_INTERNAL_PREFIX,
} from './frame-scripts.js';
import { proxyHttp, proxyUpgrade, type ProxyOptions } from './http-proxy.js';
import type { PreviewSettings } from './preview-settings.js';

/** The preview origin's own cookie: never sent on to the agent's server. */
export const PREVIEW_COOKIE = 'tandem_preview';
const AUTH_BODY_LIMIT = 8 * 1024;
/** Pages load dozens of modules at once; each would otherwise re-check access in the database. */
const ACCESS_CACHE_MS = 10_000;
const ACCESS_CACHE_MAX = 2_000;

const require = createRequire(import.meta.url);
let screenshotLibrary: Buffer | undefined;
function screenshotLibraryCode(): Buffer {
  screenshotLibrary ??= readFileSync(require.resolve('html-to-image/dist/html-to-image.js'));
  return screenshotLibrary;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

interface Viewer {
  user: AuthenticatedUser;
  token: string;
}

/** A page load (top level or in a frame), as opposed to a script, image or fetch. */
function isNavigation(req: IncomingMessage): boolean {
  const dest = req.headers['sec-fetch-dest'];
  if (dest) return dest === 'document' || dest === 'iframe';
  return req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
}

/**
 * Everything served on preview subdomains: sign-in (bridge page, token → cookie), the frame
 * scripts, and the proxy to the port the subdomain names. Requests never reach Fastify, so none of
 * the product's routes, cookies or headers exist on a preview origin.
 */
export class PreviewHost {
  private readonly access = new Map<string, { target: PreviewTarget; until: number }>();

  constructor(
    private readonly deps: {
      db: Db;
      sessions: SessionService;
      /** Preview tokens (purpose 'preview'). */
      tokens: SessionTokens;
      settings: PreviewSettings;
      logger: Logger;
      /** Whose X-Forwarded-* count (TANDEM_TRUSTED_PROXIES); default none. */
      trustProxy?: TrustFunction;
    },
  ) {}

  /** The subdomain a request is for, or undefined when it is for the product itself. */
  subdomainOf(req: IncomingMessage): string | undefined {
    return this.deps.settings.subdomainOfHost(forwardedHost(req, this.trust));
  }

  async handle(req: IncomingMessage, res: ServerResponse, subdomain: string): Promise<void> {
    try {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (path.startsWith(PREVIEW_INTERNAL_PREFIX)) return await this.internal(req, res, path);
      const viewer = await this.viewer(req);
      if (!viewer) {
        // 200, not 401: a sign-in page, and no alarming error in every preview's console.
        if (isNavigation(req))
          return this.page(res, 200, bridgePage({ appOrigins: this.origins(), mode: 'frame' }));
        return this.text(res, 401, 'Sign in to view this preview.');
      }
      const target = await this.targetFor(viewer, subdomain);
      if (target.kind !== 'ok') return this.refuse(req, res, target);
      proxyHttp(req, res, target, {
        ...this.proxyOptions(target.port),
        forwardedFor: forwardedFor(req, this.trust),
        forwardedHost: forwardedHost(req, this.trust),
      });
    } catch (error) {
      this.deps.logger.error({ err: error, subdomain, url: req.url }, 'preview request failed');
      if (!res.headersSent) this.text(res, 500, 'The preview failed. Try again.');
      else res.destroy();
    }
  }

  async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, subdomain: string): Promise<void> {
    try {
      const viewer = await this.viewer(req);
      const target = viewer ? await this.targetFor(viewer, subdomain) : undefined;
      if (target?.kind !== 'ok') {
        socket.end(`HTTP/1.1 ${viewer ? 403 : 401} Preview refused\r\nConnection: close\r\n\r\n`);
        return;
      }
      proxyUpgrade(req, socket, head, target, {
        ...this.proxyOptions(target.port),
        forwardedFor: forwardedFor(req, this.trust),
        forwardedHost: forwardedHost(req, this.trust),
      });
    } catch (error) {
      this.deps.logger.error({ err: error, subdomain }, 'preview upgrade failed');
      socket.destroy();
    }
  }

  private get trust(): TrustFunction {
    return this.deps.trustProxy ?? (() => false);
  }

  private origins(): string[] {
    return this.deps.settings.appOrigins();
  }

  /** The signed-in viewer of the preview cookie, with the token (the access cache's key). */
  private async viewer(req: IncomingMessage): Promise<Viewer | undefined> {
    const token = cookieValue(req.headers.cookie, PREVIEW_COOKIE);
    if (!token) return undefined;
    const claims = await this.deps.tokens.verify(token);
    const user = claims ? await this.deps.sessions.resolveClaims(claims) : undefined;
    return user ? { user, token } : undefined;
  }

  private async targetFor({ user, token }: Viewer, subdomain: string): Promise<PreviewTarget> {
    const key = `${token}|${subdomain}`;
    const cached = this.access.get(key);
    if (cached && cached.until > Date.now()) return cached.target;
    const target = await previewTarget(this.deps.db, user, subdomain);
    if (this.access.size >= ACCESS_CACHE_MAX) this.access.clear();
    this.access.set(key, { target, until: Date.now() + ACCESS_CACHE_MS });
    return target;
  }

  private proxyOptions(port: number): ProxyOptions {
    return {
      privateCookie: PREVIEW_COOKIE,
      htmlPrefix: '<script src="/__tandem/frame.js"></script>',
      extraHeaders: { 'content-security-policy': `frame-ancestors ${this.origins().join(' ')}` },
      forwardedProto: this.deps.settings.secure() ? 'https' : 'http',
      onUnreachable: (res) =>
        this.page(
          res,
          502,
          messagePage(
            `Nothing is answering on port ${port}`,
            'If the agent has just started its server, wait a moment and reload. A server must listen on 0.0.0.0 or localhost inside the sandbox.',
          ),
        ),
    };
  }

  private refuse(req: IncomingMessage, res: ServerResponse, target: Exclude<PreviewTarget, { kind: 'ok' }>) {
    const [status, title, text] =
      target.kind === 'unknown'
        ? [
            404,
            'Preview not found',
            'This preview address is not in use or has expired. Open the port again from the agent in Tandem.',
          ]
        : target.kind === 'forbidden'
          ? [403, 'No access to this preview', `${PREVIEW_MEMBERS_ONLY}.`]
          : [
              502,
              `Port ${target.port} is not being served`,
              `The agent's process on port ${target.port} has stopped. Ask the agent to start it again.`,
            ];
    if (isNavigation(req)) return this.page(res, status, messagePage(title, text));
    return this.text(res, status, `${title}. ${text}`);
  }

  private async internal(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const name = path.slice(PREVIEW_INTERNAL_PREFIX.length);
    if (req.method === 'POST' && name === 'auth') return this.signIn(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') return this.text(res, 405, 'Method not allowed');
    if (name === 'bridge.js') return this.script(res, BRIDGE_SCRIPT, 'no-cache');
    if (name === 'frame.js') return this.script(res, frameScript(this.origins()), 'no-cache');
    if (name === 'html-to-image.js')
      return this.script(res, screenshotLibraryCode(), 'public, max-age=86400');
    if (name === 'open') {
      const next = new URL(req.url ?? '/', 'http://preview').searchParams.get('next') ?? '/';
      // Only a path on this same origin: never a way to send the viewer elsewhere.
      const safeNext = /^\/(?!\/)/.test(next) && !next.includes('\\') ? next : '/';
      return this.page(res, 200, bridgePage({ appOrigins: this.origins(), mode: 'open', next: safeNext }));
    }
    return this.text(res, 404, 'Not found');
  }

  /** Trades a preview token for this origin's cookie (the bridge page posts it here). */
  private async signIn(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Only the bridge page on this very origin may set the cookie.
    if (req.headers['sec-fetch-site'] && req.headers['sec-fetch-site'] !== 'same-origin')
      return this.text(res, 403, 'Cross-site sign-in refused');
    let body: string;
    try {
      body = await readBody(req, AUTH_BODY_LIMIT);
    } catch {
      return this.text(res, 413, 'Sign-in request too large');
    }
    let token: unknown;
    try {
      token = (JSON.parse(body) as { token?: unknown }).token;
    } catch {
      token = undefined;
    }
    const claims = typeof token === 'string' ? await this.deps.tokens.verify(token) : undefined;
    const viewer = claims ? await this.deps.sessions.resolveClaims(claims) : undefined;
    if (!viewer || typeof token !== 'string') return this.text(res, 401, 'This preview token is not valid.');
    // Partitioned (CHIPS): the preview is a third-party frame in the workspace; its cookie lives
    // only under the workspace's site. Secure is required for that, and browsers allow it on
    // *.localhost over plain http.
    res.setHeader(
      'set-cookie',
      `${PREVIEW_COOKIE}=${encodeURIComponent(token)}; Path=/; Max-Age=${PREVIEW_TOKEN_TTL_MS / 1000}; HttpOnly; Secure; SameSite=None; Partitioned`,
    );
    res.writeHead(204, { 'cache-control': 'no-store' });
    res.end();
  }

  private script(res: ServerResponse, code: string | Buffer, cache: string): void {
    res.writeHead(200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': cache,
      'x-content-type-options': 'nosniff',
    });
    res.end(code);
  }

  private page(res: ServerResponse, status: number, html: string): void {
    res.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': `default-src 'self'; style-src 'unsafe-inline'; frame-ancestors ${this.origins().join(' ')}`,
    });
    res.end(html);
  }

  private text(res: ServerResponse, status: number, text: string): void {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(text);
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.destroy();
        reject(new Error('preview sign-in body too large'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
