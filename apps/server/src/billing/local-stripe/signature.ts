import { createHmac } from 'node:crypto';

/**
 * Stripe's `Stripe-Signature` header: `t={unix seconds},v1={hex HMAC-SHA256 of "{t}.{payload}"}`
 * keyed by the endpoint's signing secret, which `stripe.webhooks.constructEvent` verifies.
 */
export function stripeSignatureHeader(payload: string, secret: string, now = Date.now()): string {
  const timestamp = Math.floor(now / 1000);
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}
