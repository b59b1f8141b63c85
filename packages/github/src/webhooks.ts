import { verify } from '@octokit/webhooks-methods';

const SIGNATURE_FORMAT = /^sha256=[0-9a-f]{64}$/;

/**
 * Checks `X-Hub-Signature-256` (HMAC-SHA256 of the raw body) in constant time. Anything missing or
 * malformed is simply false, so callers have one answer to act on: reject.
 */
export async function verifyWebhookSignature(
  secret: string,
  rawBody: string | Uint8Array,
  signature: string | undefined | null,
): Promise<boolean> {
  if (!secret || !signature || !SIGNATURE_FORMAT.test(signature)) return false;
  let body: string;
  try {
    // The HMAC covers bytes; a body that is not UTF-8 cannot be the JSON GitHub signed.
    body = typeof rawBody === 'string' ? rawBody : new TextDecoder('utf-8', { fatal: true }).decode(rawBody);
  } catch {
    return false;
  }
  if (!body) return false;
  try {
    return await verify(secret, body, signature);
  } catch {
    return false;
  }
}

export interface WebhookHeaders {
  /** X-GitHub-Event, e.g. 'installation', 'push', 'pull_request'. */
  event: string;
  /** X-GitHub-Delivery: unique per delivery, the key for idempotency (redeliveries reuse it). */
  deliveryId: string;
  /** X-Hub-Signature-256 */
  signature: string;
}

export class WebhookHeaderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookHeaderError';
  }
}

/** Reads the delivery headers (any letter case); names the first one missing. */
export function parseWebhookHeaders(
  headers: Record<string, string | string[] | undefined> | Headers,
): WebhookHeaders {
  const lower = new Map<string, string>();
  const add = (name: string, value: string | string[] | undefined) => {
    const first = Array.isArray(value) ? value[0] : value;
    if (first) lower.set(name.toLowerCase(), first);
  };
  if (headers instanceof Headers) headers.forEach((value, name) => add(name, value));
  else for (const [name, value] of Object.entries(headers)) add(name, value);
  const required = (name: string, label: string) => {
    const value = lower.get(name)?.trim();
    if (!value) throw new WebhookHeaderError(`Missing ${label} header`);
    return value;
  };
  return {
    event: required('x-github-event', 'X-GitHub-Event'),
    deliveryId: required('x-github-delivery', 'X-GitHub-Delivery'),
    signature: required('x-hub-signature-256', 'X-Hub-Signature-256'),
  };
}
