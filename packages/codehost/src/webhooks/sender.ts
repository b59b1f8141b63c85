import { randomUUID } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';

export interface WebhookSenderOptions {
  url: string | undefined;
  secret: string;
  store: Store;
  logger: Logger;
  /** Waits before each retry; GitHub-like back-off by default, tiny in tests. */
  retryDelaysMs?: number[];
  /** The App's id, sent as X-GitHub-Hook-Installation-Target-ID. */
  appId?: number;
  /** The App's webhook id, sent as X-GitHub-Hook-ID. */
  hookId?: number;
}

/**
 * Signed deliveries to the product, like GitHub's: queued so the triggering request never waits,
 * logged, and retried with the same delivery id when the receiver fails.
 */
export class WebhookSender {
  private readonly delays: number[];
  private readonly pending = new Set<Promise<void>>();
  /** Recent bodies by delivery id, for redelivery (bounded like the log; not persisted). */
  private readonly bodies = new Map<string, { event: string; body: string }>();
  private closed = false;

  constructor(private readonly options: WebhookSenderOptions) {
    this.delays = options.retryDelaysMs ?? [1000, 5000, 25_000];
  }

  /** Points deliveries somewhere else (the product learns its own port only after listening). */
  setUrl(url: string | undefined): void {
    this.options.url = url;
  }

  send(event: string, payload: Record<string, unknown>): string {
    const id = randomUUID();
    const action = typeof payload.action === 'string' ? payload.action : null;
    this.options.store.update((s) => {
      s.deliveries.push({
        id,
        event,
        action,
        status: null,
        attempts: 0,
        deliveredAt: null,
        error: null,
        createdAt: new Date().toISOString(),
      });
      // The log is for looking at recent traffic; keep it bounded.
      if (s.deliveries.length > 500) s.deliveries.splice(0, s.deliveries.length - 500);
    });
    const body = JSON.stringify(payload);
    this.bodies.set(id, { event, body });
    if (this.bodies.size > 500) this.bodies.delete(this.bodies.keys().next().value!);
    this.queue(id, event, body);
    return id;
  }

  /**
   * Sends a recent delivery again with its id and body unchanged, as GitHub's "Redeliver" does
   * (`POST /app/hook/deliveries/{id}/attempts`). False when the delivery is unknown or too old.
   */
  redeliver(id: string): boolean {
    const sent = this.bodies.get(id);
    if (!sent) return false;
    this.queue(id, sent.event, sent.body);
    return true;
  }

  private queue(id: string, event: string, body: string): void {
    if (!this.options.url) return;
    const job = this.deliver(id, event, body).finally(() => this.pending.delete(job));
    this.pending.add(job);
  }

  /** Resolves when every queued delivery has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  close(): void {
    this.closed = true;
  }

  private async deliver(id: string, event: string, body: string): Promise<void> {
    const signature = await sign(this.options.secret, body);
    for (let attempt = 0; attempt <= this.delays.length && !this.closed; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, this.delays[attempt - 1]));
      let status: number | null = null;
      let error: string | null = null;
      try {
        const response = await fetch(this.options.url!, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'GitHub-Hookshot/tandem-codehost',
            'x-github-event': event,
            'x-github-delivery': id,
            // GitHub names the hook (the App's) and its target on every delivery.
            'x-github-hook-id': String(this.options.hookId ?? 1),
            'x-github-hook-installation-target-type': 'integration',
            'x-github-hook-installation-target-id': String(this.options.appId ?? 1),
            'x-hub-signature-256': signature,
          },
          body,
        });
        status = response.status;
        if (!response.ok) error = `HTTP ${response.status}`;
      } catch (failure) {
        error = (failure as Error).message;
      }
      this.record(id, status, error);
      if (!error) return;
      this.options.logger.warn({ id, event, attempt: attempt + 1, error }, 'webhook delivery failed');
    }
  }

  private record(id: string, status: number | null, error: string | null): void {
    this.options.store.update((s) => {
      const delivery = s.deliveries.find((d) => d.id === id);
      if (!delivery) return;
      delivery.attempts += 1;
      delivery.status = status;
      delivery.error = error;
      if (!error) delivery.deliveredAt = new Date().toISOString();
    });
  }
}
