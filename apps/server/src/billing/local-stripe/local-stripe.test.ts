import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStripe, type RunningLocalStripe } from './server.js';

/** The stand-in as the official `stripe` library and a browser see it, over real HTTP. */
describe('local billing stand-in', () => {
  let local: RunningLocalStripe;
  let stripe: Stripe;
  const received: { body: string; signature: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ body, signature: String(req.headers['stripe-signature']) });
      res.end('ok');
    });
  });

  beforeAll(async () => {
    local = await startLocalStripe({ webhookRetryDelaysMs: [10] });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    local.connectProduct({ webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/` });
    stripe = new Stripe(local.secretKey, {
      host: local.host,
      port: local.port,
      protocol: 'http',
      telemetry: false,
      maxNetworkRetries: 0,
    });
  });
  afterAll(async () => {
    await local.close();
    receiver.close();
  });

  /** What the browser's card form sends: the publishable key and the setup's client secret. */
  async function confirmCard(clientSecret: string, number: string) {
    const id = clientSecret.split('_secret_')[0]!;
    const response = await fetch(`${local.url}/v1/setup_intents/${id}/confirm`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${local.publishableKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        client_secret: clientSecret,
        'payment_method_data[type]': 'card',
        'payment_method_data[card][number]': number,
        'payment_method_data[card][exp_month]': '12',
        'payment_method_data[card][exp_year]': '2034',
        'payment_method_data[card][cvc]': '123',
      }),
    });
    return {
      status: response.status,
      body: (await response.json()) as { error: { message: string }; payment_method: string },
    };
  }

  it('sets up a test card, makes it the default, charges an invoice and signs the events', async () => {
    const customer = await stripe.customers.create({ metadata: { installation_id: '7' } });
    const setup = await stripe.setupIntents.create({ customer: customer.id, usage: 'off_session' });
    const confirmed = await confirmCard(setup.client_secret!, '4242 4242 4242 4242');
    expect(confirmed.status).toBe(200);
    const methods = await stripe.customers.listPaymentMethods(customer.id, { type: 'card' });
    expect(methods.data.map((m) => [m.card?.brand, m.card?.last4])).toEqual([['visa', '4242']]);
    await stripe.customers.update(customer.id, {
      invoice_settings: { default_payment_method: methods.data[0]!.id },
    });
    const invoice = await stripe.invoices.create(
      { customer: customer.id, auto_advance: false, metadata: { installation_id: '7' } },
      { idempotencyKey: 'buy-1' },
    );
    const again = await stripe.invoices.create({ customer: customer.id }, { idempotencyKey: 'buy-1' });
    expect(again.id).toBe(invoice.id);
    await stripe.invoiceItems.create({
      customer: customer.id,
      invoice: invoice.id!,
      amount: 1000,
      currency: 'usd',
    });
    await stripe.invoices.finalizeInvoice(invoice.id!);
    const paid = await stripe.invoices.pay(invoice.id!, { off_session: true });
    expect(paid.status).toBe('paid');
    expect(paid.hosted_invoice_url).toMatch(/\/invoices\/in_/);
    expect((await fetch(paid.hosted_invoice_url!)).status).toBe(200);
    await local.webhooks.idle();
    const events = received.map((r) =>
      stripe.webhooks.constructEvent(r.body, r.signature, local.webhookSecret),
    );
    expect(events.map((e) => e.type)).toEqual([
      'setup_intent.succeeded',
      'payment_intent.succeeded',
      'invoice.paid',
    ]);
    expect(() =>
      stripe.webhooks.constructEvent(received[0]!.body, received[0]!.signature, 'whsec_wrong'),
    ).toThrow();
  });

  it("declines Stripe's declined and insufficient-funds cards with Stripe's messages", async () => {
    const customer = await stripe.customers.create({});
    for (const [number, message] of [
      ['4000000000000002', 'Your card was declined.'],
      ['4000000000009995', 'Your card has insufficient funds.'],
    ] as const) {
      const setup = await stripe.setupIntents.create({ customer: customer.id });
      const result = await confirmCard(setup.client_secret!, number);
      expect(result.status).toBe(402);
      expect(result.body.error.message).toBe(message);
    }
    expect((await stripe.customers.listPaymentMethods(customer.id)).data).toEqual([]);
  });

  it('declines a charge on 4000 0000 0000 0341 as a StripeCardError', async () => {
    const customer = await stripe.customers.create({});
    const setup = await stripe.setupIntents.create({ customer: customer.id });
    const { body } = await confirmCard(setup.client_secret!, '4000000000000341');
    const invoice = await stripe.invoices.create({ customer: customer.id });
    await stripe.invoiceItems.create({
      customer: customer.id,
      invoice: invoice.id!,
      amount: 500,
      currency: 'usd',
    });
    const error = await stripe.invoices
      .pay(invoice.id!, { payment_method: body.payment_method, off_session: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect((error as Error).message).toBe('Your card was declined.');
  });

  it('refuses a publishable key for anything but confirming a card', async () => {
    const browser = new Stripe(local.publishableKey, {
      host: local.host,
      port: local.port,
      protocol: 'http',
    });
    await expect(browser.customers.create({})).rejects.toThrow(/publishable API key/);
  });
});
