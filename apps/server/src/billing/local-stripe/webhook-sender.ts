import type { Logger } from 'pino';
import { stripeSignatureHeader } from './signature.js';
import { newId, nowSeconds } from './store.js';

/** The API version the stand-in's events claim (the one the `stripe` library pins). */
export const LOCAL_STRIPE_API_VERSION = '2025-01-01';

/**
 * Signed event deliveries to the product, as Stripe sends them: after the request that caused the
 * event has been answered, with `Stripe-Signature`, retried when the endpoint fails. Events are
 * kept (bounded) so a test can deliver one again, as Stripe may.
 */
export class WebhookSender {
  private url: string | undefined;
  private readonly pending = new Set<Promise<void>>();
  private readonly events = new Map<string, string>();

  constructor(
    private readonly secret: string,
    private readonly logger: Logger,
    private readonly retryDelaysMs: number[] = [500, 5_000, 30_000],
  ) {}

  setUrl(url: string | undefined): void {
    this.url = url;
  }

  /** Queues an event and returns its id. */
  send(type: string, object: unknown): string {
    const id = newId('evt');
    const body = JSON.stringify({
      id,
      object: 'event',
      api_version: LOCAL_STRIPE_API_VERSION,
      created: nowSeconds(),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object },
    });
    this.events.set(id, body);
    if (this.events.size > 500) this.events.delete(this.events.keys().next().value!);
    this.queue(id, body);
    return id;
  }

  /** Delivers a sent event again, byte for byte (freshly signed). */
  resend(eventId: string): void {
    const body = this.events.get(eventId);
    if (!body) throw new Error(`No event ${eventId}`);
    this.queue(eventId, body);
  }

  /** Ids of the events sent so far, oldest first, with their types. */
  sent(): { id: string; type: string }[] {
    return [...this.events].map(([id, body]) => ({ id, type: (JSON.parse(body) as { type: string }).type }));
  }

  /** Resolves when every queued delivery has succeeded or given up. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  private queue(id: string, body: string): void {
    const delivery = this.deliver(id, body).finally(() => this.pending.delete(delivery));
    this.pending.add(delivery);
  }

  private async deliver(id: string, body: string): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    for (let attempt = 0; ; attempt++) {
      const url = this.url;
      if (!url) return;
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'stripe-signature': stripeSignatureHeader(body, this.secret),
            'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        if (response.ok) return;
        this.logger.warn({ event: id, status: response.status }, 'webhook endpoint refused an event');
      } catch (error) {
        this.logger.warn({ event: id, err: error }, 'webhook delivery failed');
      }
      const delay = this.retryDelaysMs[attempt];
      if (delay === undefined) return;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
