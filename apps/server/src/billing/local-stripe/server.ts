import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { LocalStripeApi } from './api.js';
import { parseForm } from './form.js';
import { stripeError } from './objects.js';
import { LocalStripeStore } from './store.js';
import { WebhookSender } from './webhook-sender.js';

export interface LocalStripeOptions {
  /** Where its JSON state lives; omitted: memory only (tests). */
  dataDir?: string;
  port?: number;
  host?: string;
  logger?: Logger;
  /** Waits before webhook retries (tests shorten them). */
  webhookRetryDelaysMs?: number[];
}

export interface RunningLocalStripe {
  /** e.g. http://127.0.0.1:8082: the API is under /v1, hosted invoices under /invoices. */
  url: string;
  host: string;
  port: number;
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  webhooks: WebhookSender;
  store: LocalStripeStore;
  /** Where events go: the product's webhook endpoint, known once it listens. */
  connectProduct(options: { webhookUrl: string }): void;
  close(): Promise<void>;
}

/**
 * The local billing stand-in (docs/decisions.md "Billing"): a small Stripe-compatible HTTP server
 * that the official `stripe` library talks to through its host/port/protocol options, with
 * Stripe's test cards and signed webhooks, so billing works offline end to end.
 */
export async function startLocalStripe(options: LocalStripeOptions = {}): Promise<RunningLocalStripe> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const secretKey = `sk_test_local_${randomBytes(18).toString('hex')}`;
  const publishableKey = `pk_test_local_${randomBytes(18).toString('hex')}`;
  const webhookSecret = `whsec_local_${randomBytes(18).toString('hex')}`;
  const store = new LocalStripeStore(options.dataDir ? join(options.dataDir, 'state.json') : undefined);
  const webhooks = new WebhookSender(webhookSecret, logger, options.webhookRetryDelaysMs);
  let url = '';
  const api = new LocalStripeApi(store, webhooks, () => url);

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error({ err: error }, 'local billing request failed');
      send(res, 500, stripeError('invalid_request_error', 'An unexpected error occurred.'));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = new URL(req.url ?? '/', 'http://local');
    if (req.method === 'OPTIONS') return send(res, 204, undefined);
    if (req.method === 'GET' && target.pathname.startsWith('/invoices/')) {
      return invoicePage(res, decodeURIComponent(target.pathname.slice('/invoices/'.length)));
    }
    if (!target.pathname.startsWith('/v1/'))
      return send(res, 404, stripeError('invalid_request_error', 'Not found'));
    const auth = req.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '';
    const key = auth === secretKey ? 'secret' : auth === publishableKey ? 'publishable' : null;
    if (!key)
      return send(
        res,
        401,
        stripeError('authentication_error', `Invalid API Key provided: ${auth.slice(0, 12)}…`),
      );
    const body = await readBody(req);
    const form = req.method === 'GET' ? parseForm(target.search.slice(1)) : parseForm(body);
    const idempotencyKey = req.method === 'POST' ? req.headers['idempotency-key'] : undefined;
    const replayKey = typeof idempotencyKey === 'string' ? `${key}:${idempotencyKey}` : undefined;
    const replay = replayKey ? store.state.idempotent[replayKey] : undefined;
    if (replay) {
      res.setHeader('idempotent-replayed', 'true');
      return sendText(res, replay.status, replay.body);
    }
    const response = api.handle({ method: req.method ?? 'GET', path: target.pathname, form, key });
    const text = JSON.stringify(response.body);
    // Stripe stores the first result of a key, successes and card declines alike.
    if (replayKey && response.status < 500) {
      store.state.idempotent[replayKey] = { status: response.status, body: text };
      store.save();
    }
    sendText(res, response.status, text);
  }

  function invoicePage(res: ServerResponse, id: string): void {
    const invoice = store.state.invoices[id];
    if (!invoice || invoice.status === 'draft') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Invoice not found');
      return;
    }
    const total = invoice.lines.reduce((sum, line) => sum + line.amount, 0);
    const rows = invoice.lines
      .map(
        (line) =>
          `<tr><td>${escapeHtml(line.description ?? '')}</td><td>$${(line.amount / 100).toFixed(2)}</td></tr>`,
      )
      .join('');
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Invoice ${escapeHtml(id)}</title></head>` +
          `<body><main><h1>Invoice ${escapeHtml(id)}</h1><p>Status: ${invoice.status}</p>` +
          `<table><thead><tr><th>Item</th><th>Amount</th></tr></thead><tbody>${rows}</tbody></table>` +
          `<p>Total: $${(total / 100).toFixed(2)}</p><p>Local billing stand-in: no money moved.</p></main></body></html>`,
      );
  }

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  url = `http://${urlHost}:${port}`;
  return {
    url,
    host: urlHost.replace(/^\[|\]$/g, ''),
    port,
    secretKey,
    publishableKey,
    webhookSecret,
    webhooks,
    store,
    connectProduct: ({ webhookUrl }) => webhooks.setUrl(webhookUrl),
    close: async () => {
      webhooks.setUrl(undefined);
      await webhooks.idle();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 1024 * 1024) req.destroy(new Error('body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const CORS = {
  // The browser confirms cards here directly, as Stripe.js does with api.stripe.com.
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type, idempotency-key',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
};

function send(res: ServerResponse, status: number, body: unknown): void {
  sendText(res, status, body === undefined ? '' : JSON.stringify(body));
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'request-id': `req_${randomBytes(7).toString('hex')}`,
    ...CORS,
  });
  res.end(text);
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
