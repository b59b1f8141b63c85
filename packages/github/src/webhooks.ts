import { verify } from '@octokit/webhooks-methods';

/** Checks `X-Hub-Signature-256` over the raw body; false for anything missing or malformed. */
export async function verifyWebhookSignature(
  secret: string,
  rawBody: string,
  signature: string | undefined,
): Promise<boolean> {
  if (!signature || !signature.startsWith('sha256=')) return false;
  try {
    return await verify(secret, rawBody, signature);
  } catch {
    return false;
  }
}

export interface WebhookHeaders {
  event: string;
  deliveryId: string;
  signature: string | undefined;
}

export class WebhookHeaderError extends Error {}

export function parseWebhookHeaders(headers: Record<string, string | string[] | undefined>): WebhookHeaders {
  const one = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const event = one('x-github-event');
  const deliveryId = one('x-github-delivery');
  if (!event) throw new WebhookHeaderError('Missing X-GitHub-Event header');
  if (!deliveryId) throw new WebhookHeaderError('Missing X-GitHub-Delivery header');
  return { event, deliveryId, signature: one('x-hub-signature-256') };
}
