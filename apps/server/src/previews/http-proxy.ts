import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** Headers that describe one connection, not the message: never passed on (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Largest HTML page buffered to add the frame script; bigger pages pass through unchanged. */
const MAX_INJECTED_HTML = 8 * 1024 * 1024;
const CONNECT_TIMEOUT_MS = 10_000;

export interface ProxyTarget {
  host: string;
  /** The agent's port: what its server thinks it serves on (Host header, redirects). */
  port: number;
  /** Where that port is reached on `host` when it is forwarded from the agent's namespace. */
  connectPort?: number;
}

export interface ProxyOptions {
  /** A cookie the proxy owns: removed before the request reaches the agent's server. */
  privateCookie: string;
  /** Added to every HTML page, before anything else in its <head>. */
  htmlPrefix: string;
  /** Response headers set on everything the preview serves (frame-ancestors…). */
  extraHeaders: Record<string, string>;
  forwardedProto: 'http' | 'https';
  /** The client chain as we trust it (config/trusted-proxies.ts); replaces what the client sent. */
  forwardedFor?: string;
  /** The host the visitor asked for, as we trust it; the Host header when unset. */
  forwardedHost?: string | undefined;
  /** Nothing answered on the port (the server has not started yet, or just stopped). */
  onUnreachable(res: ServerResponse, error: Error): void;
}

function withoutCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const kept = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part && !part.startsWith(`${name}=`));
  return kept.length ? kept.join('; ') : undefined;
}

/** The request's headers as the agent's server should see them. */
function upstreamHeaders(
  req: IncomingMessage,
  target: ProxyTarget,
  options: Pick<ProxyOptions, 'privateCookie' | 'forwardedProto' | 'forwardedFor' | 'forwardedHost'>,
) {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
  }
  // Dev servers refuse unknown Host headers (DNS-rebinding guards); to them this is a local visit.
  headers.host = `localhost:${target.port}`;
  headers['x-forwarded-host'] = options.forwardedHost ?? req.headers.host ?? '';
  headers['x-forwarded-proto'] = options.forwardedProto;
  // Whatever forwarding headers the visitor made up are not passed on as if we had vouched for them.
  for (const name of ['forwarded', 'x-forwarded-for', 'x-forwarded-port', 'x-real-ip']) delete headers[name];
  if (options.forwardedFor) headers['x-forwarded-for'] = options.forwardedFor;
  // Plain bodies, so the frame script can be added to HTML.
  headers['accept-encoding'] = 'identity';
  const cookie = withoutCookie(req.headers.cookie, options.privateCookie);
  if (cookie) headers.cookie = cookie;
  else delete headers.cookie;
  return headers;
}

/**
 * A redirect to the server's own local address (`http://localhost:3000/login`) would leave the
 * preview's origin; it becomes a path on it.
 */
export function localRedirect(location: string, port: number): string {
  const match = /^https?:\/\/(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?::(\d+))?(\/.*)?$/i.exec(
    location,
  );
  if (!match || Number(match[1] ?? 80) !== port) return location;
  return match[2] ?? '/';
}

function responseHeaders(
  upstream: IncomingMessage,
  target: ProxyTarget,
  options: ProxyOptions,
): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(upstream.headers)) {
    // The preview is always framed by the workspace; frame-ancestors below says by whom.
    if (HOP_BY_HOP.has(name) || name === 'x-frame-options' || value === undefined) continue;
    headers[name] =
      name === 'location' && typeof value === 'string' ? localRedirect(value, target.port) : value;
  }
  for (const [name, value] of Object.entries(options.extraHeaders)) {
    const existing = headers[name];
    headers[name] = existing === undefined ? value : [...[existing].flat(), value];
  }
  return headers;
}

/** `prefix` placed right after the opening <head> tag, else after <html>, else first. */
export function injectIntoHtml(html: string, prefix: string): string {
  const anchor = /<head(\s[^>]*)?>/i.exec(html) ?? /<html(\s[^>]*)?>/i.exec(html);
  if (!anchor) return prefix + html;
  const at = anchor.index + anchor[0].length;
  return html.slice(0, at) + prefix + html.slice(at);
}

const isHtml = (upstream: IncomingMessage) =>
  /^text\/html\b/i.test(upstream.headers['content-type'] ?? '') && !upstream.headers['content-encoding'];

/** Forwards one HTTP request to the agent's server and streams its answer back. */
export function proxyHttp(
  req: IncomingMessage,
  res: ServerResponse,
  target: ProxyTarget,
  options: ProxyOptions,
): void {
  const upstreamRequest = httpRequest({
    host: target.host,
    port: target.connectPort ?? target.port,
    method: req.method,
    path: req.url,
    headers: upstreamHeaders(req, target, options),
    timeout: CONNECT_TIMEOUT_MS,
  });
  upstreamRequest.once('socket', (socket: Socket) => {
    // The timeout guards connecting only: a long poll or an event stream may stay quiet for long.
    if (!socket.connecting) upstreamRequest.setTimeout(0);
    else socket.once('connect', () => upstreamRequest.setTimeout(0));
  });
  upstreamRequest.on('timeout', () => upstreamRequest.destroy(new Error('connect timeout')));
  upstreamRequest.on('error', (error) => {
    if (!res.headersSent) options.onUnreachable(res, error);
    else res.destroy(error);
  });
  upstreamRequest.on('response', (upstream) => {
    const headers = responseHeaders(upstream, target, options);
    const status = upstream.statusCode ?? 502;
    if (!isHtml(upstream) || req.method === 'HEAD' || status === 204 || status === 304) {
      res.writeHead(status, upstream.statusMessage, headers);
      upstream.pipe(res);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let passthrough = false;
    upstream.on('data', (chunk: Buffer) => {
      if (passthrough) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size <= MAX_INJECTED_HTML) return;
      // Too big to rewrite: send what we have and stream the rest untouched.
      passthrough = true;
      res.writeHead(status, upstream.statusMessage, headers);
      res.write(Buffer.concat(chunks));
      upstream.pipe(res);
    });
    upstream.on('end', () => {
      if (passthrough) return;
      const body = Buffer.from(injectIntoHtml(Buffer.concat(chunks).toString('utf8'), options.htmlPrefix));
      delete headers['content-length'];
      res.writeHead(status, upstream.statusMessage, { ...headers, 'content-length': String(body.length) });
      res.end(body);
    });
    upstream.on('error', (error) => res.destroy(error));
  });
  req.pipe(upstreamRequest);
  res.on('close', () => {
    if (!res.writableFinished) upstreamRequest.destroy();
  });
}

/** Forwards a WebSocket (or other Upgrade) handshake and then joins the two sockets. */
export function proxyUpgrade(
  req: IncomingMessage,
  client: Duplex,
  head: Buffer,
  target: ProxyTarget,
  options: Pick<ProxyOptions, 'privateCookie' | 'forwardedProto' | 'forwardedFor' | 'forwardedHost'>,
): void {
  const upstream = connect({ host: target.host, port: target.connectPort ?? target.port });
  upstream.setTimeout(CONNECT_TIMEOUT_MS, () => upstream.destroy(new Error('connect timeout')));
  upstream.once('connect', () => {
    upstream.setTimeout(0);
    const headers = upstreamHeaders(req, target, options);
    // The handshake needs exactly the headers a plain request must not forward.
    headers.connection = req.headers.connection ?? 'Upgrade';
    headers.upgrade = req.headers.upgrade ?? 'websocket';
    delete headers['accept-encoding'];
    const lines = [`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/1.1`];
    for (const [name, value] of Object.entries(headers)) {
      for (const v of [value ?? []].flat()) lines.push(`${name}: ${v}`);
    }
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  const close = () => {
    upstream.destroy();
    client.destroy();
  };
  upstream.on('error', close);
  client.on('error', close);
  upstream.on('close', close);
  client.on('close', close);
}
