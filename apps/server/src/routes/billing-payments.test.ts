import { recordTransaction } from '@tandem/agent';
import { testDatabaseKinds } from '@tandem/db/testing';
import {
  autoFillStateSchema,
  creditsRemainingSchema,
  paymentMethodListSchema,
  setupIntentSchema,
  transactionListSchema,
} from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { stripeSignatureHeader } from '../billing/local-stripe/signature.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

/**
 * Billing end to end over real HTTP: the app's `stripe` client against the local stand-in, the
 * browser's card confirmation at the stand-in, and the stand-in's signed webhooks back to the app.
 */
describe.each(testDatabaseKinds())('billing payments on %s', (kind) => {
  const testApp = useTestApp(kind, { billing: true });
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let nextInstallation = 500;

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({ username: 'ada', admin: true });
    bob = await app.signIn({ username: 'bob' });
  });

  /** A fresh installation (3000 free credits) with ada as its admin and bob as a member. */
  async function installation(): Promise<number> {
    const id = nextInstallation++;
    const admin = await app.signIn({
      username: `admin${id}`,
      installations: [{ id, name: `org${id}`, role: 'admin' }],
    });
    const member = await app.signIn({
      username: `member${id}`,
      installations: [{ id, name: `org${id}`, role: 'member' }],
    });
    users.set(id, { admin, member });
    return id;
  }
  const users = new Map<number, { admin: TestUser; member: TestUser }>();

  function call(
    id: number,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    who: 'admin' | 'member' = 'admin',
  ) {
    const user = users.get(id)![who];
    return app.server.inject({
      method,
      url,
      headers: { authorization: `Bearer ${user.token}`, 'x-installation-id': String(id) },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  }

  /** What the settings page's local card form does: a setup intent, confirmed at the stand-in. */
  async function addCard(id: number, number: string) {
    const setup = setupIntentSchema.parse((await call(id, 'POST', '/api/billing/setup-intent')).json());
    const intent = setup.client_secret.split('_secret_')[0]!;
    const response = await fetch(`${app.billing.url}/v1/setup_intents/${intent}/confirm`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${app.billing.publishableKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        client_secret: setup.client_secret,
        'payment_method_data[type]': 'card',
        'payment_method_data[card][number]': number,
        'payment_method_data[card][exp_month]': '4',
        'payment_method_data[card][exp_year]': '2035',
        'payment_method_data[card][cvc]': '123',
      }),
    });
    return { status: response.status, body: (await response.json()) as { error?: { message: string } } };
  }

  const credits = async (id: number) =>
    creditsRemainingSchema.parse(
      (await call(id, 'GET', `/api/billing/credits-remaining?installation_id=${id}`)).json(),
    ).credits;
  const transactions = async (id: number, query = '') =>
    transactionListSchema.parse(
      (await call(id, 'GET', `/api/billing/transactions?installation_id=${id}${query}`)).json(),
    ).transactions;
  const settled = async () => {
    await app.autoFill.idle();
    await app.billing.webhooks.idle();
  };

  it('lets the page reach the stand-in (CSP) and tells it how to add cards (/api/config)', async () => {
    const res = await app.server.inject('/api/config');
    expect(res.json()).toMatchObject({
      billing: { mode: 'local', publishable_key: app.billing.publishableKey, local_api_url: app.billing.url },
    });
    const page = await app.server.inject('/settings');
    expect(String(page.headers['content-security-policy'])).toContain(
      `connect-src 'self' ${app.billing.url}`,
    );
    expect(String(page.headers['content-security-policy'])).not.toContain('js.stripe.com');
  });

  it('adds a card, buys credits with it, and credits the ledger from the webhook as an invoice', async () => {
    const id = await installation();
    expect(
      paymentMethodListSchema.parse((await call(id, 'GET', '/api/billing/payment-methods')).json()),
    ).toEqual({
      methods: [],
      default_method: null,
    });
    expect((await addCard(id, '4242424242424242')).status).toBe(200);
    const list = paymentMethodListSchema.parse(
      (await call(id, 'GET', '/api/billing/payment-methods')).json(),
    );
    expect(list.methods).toEqual([
      { id: list.default_method, display_brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2035 },
    ]);

    const bought = await call(id, 'POST', '/api/billing/purchase-credits', {
      credits: 1000,
      idempotency_key: 'click-0001',
    });
    expect(bought.statusCode).toBe(200);
    expect(bought.json()).toMatchObject({ status: 'paid' });
    // The same click retried: the same invoice, no second charge.
    const retried = await call(id, 'POST', '/api/billing/purchase-credits', {
      credits: 1000,
      idempotency_key: 'click-0001',
    });
    expect(retried.json()).toEqual(bought.json());
    await settled();
    expect(await credits(id)).toBe(300_000 + 100_000);
    const [invoiceRow] = await transactions(id, '&agents=false&other=false');
    expect(invoiceRow).toMatchObject({
      amount: 100_000,
      kind: 'invoice',
      description: 'Purchased 1000 credits',
      invoice_id: bought.json<{ invoice_id: string }>().invoice_id,
    });
    const url = await call(id, 'GET', `/api/billing/invoice-url?invoice_id=${invoiceRow!.invoice_id}`);
    expect(url.json<{ url: string }>().url).toBe(`${app.billing.url}/invoices/${invoiceRow!.invoice_id}`);
    const missing = await call(id, 'GET', '/api/billing/invoice-url?invoice_id=in_unknown');
    expect(missing.json()).toMatchObject({ detail: 'Failed to fetch invoice URL.' });
  });

  it("shows a declined card's own message and changes nothing", async () => {
    const id = await installation();
    const declined = await addCard(id, '4000000000000002');
    expect(declined.status).toBe(402);
    expect(declined.body.error?.message).toBe('Your card was declined.');
    expect((await addCard(id, '4000000000009995')).body.error?.message).toBe(
      'Your card has insufficient funds.',
    );
    expect(
      paymentMethodListSchema.parse((await call(id, 'GET', '/api/billing/payment-methods')).json()).methods,
    ).toEqual([]);
    const noCard = await call(id, 'POST', '/api/billing/purchase-credits', {
      credits: 500,
      idempotency_key: 'click-none',
    });
    expect(noCard.statusCode).toBe(400);

    // A card that is accepted when added and declined when charged.
    await addCard(id, '4000000000000341');
    const charged = await call(id, 'POST', '/api/billing/purchase-credits', {
      credits: 500,
      idempotency_key: 'click-0341',
    });
    expect(charged.statusCode).toBe(402);
    expect(charged.json()).toMatchObject({ detail: 'Your card was declined.' });
    // The refused invoice is voided, not left open for the customer to owe.
    const refused = Object.values(app.billing.store.state.invoices).filter(
      (invoice) => invoice.metadata.installation_id === String(id),
    );
    expect(refused.map((invoice) => invoice.status)).toEqual(['void']);
    await settled();
    expect(await credits(id)).toBe(300_000);
    expect(await transactions(id, '&agents=false&other=false')).toEqual([]);
  });

  it('credits once when the same webhook is delivered twice, and refuses unsigned events', async () => {
    const id = await installation();
    await addCard(id, '4242424242424242');
    await call(id, 'POST', '/api/billing/purchase-credits', { credits: 700, idempotency_key: 'click-twice' });
    await settled();
    const paid = app
      .billing!.webhooks.sent()
      .filter((e) => e.type === 'invoice.paid')
      .at(-1)!;
    app.billing.webhooks.resend(paid.id);
    app.billing.webhooks.resend(paid.id);
    await settled();
    expect(await credits(id)).toBe(300_000 + 70_000);
    expect(await transactions(id, '&agents=false&other=false')).toHaveLength(1);

    const forged = JSON.stringify({ id: 'evt_forged', type: 'invoice.paid', data: { object: {} } });
    const refused = await app.server.inject({
      method: 'POST',
      url: '/api/billing/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripeSignatureHeader(forged, 'whsec_wrong'),
      },
      payload: forged,
    });
    expect(refused.statusCode).toBe(401);
  });

  it('auto-fills once when ten spends cross the threshold at once, and shows a failed charge', async () => {
    const id = await installation();
    await addCard(id, '4242424242424242');
    const saved = await call(id, 'POST', '/api/billing/auto-fill', {
      enabled: true,
      threshold: 2500,
      amount: 1000,
    });
    expect(autoFillStateSchema.parse(saved.json())).toEqual({
      enabled: true,
      threshold: 2500,
      amount: 1000,
      last_error: null,
    });
    await settled();
    expect(await credits(id)).toBe(300_000); // above the threshold: nothing bought
    // Ten spenders of 100 credits each, all at once: 3000 → 2000 credits, below 2500.
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        await recordTransaction(app.database.db, {
          installationId: id,
          amount: -10_000,
          kind: 'agent',
          description: `Model call ${i}`,
        });
        app.autoFill.check(id);
      }),
    );
    await settled();
    const fills = (await transactions(id, '&agents=false&other=false')).filter((t) =>
      t.description.startsWith('Auto-fill'),
    );
    expect(fills).toHaveLength(1);
    expect(await credits(id)).toBe(200_000 + 100_000);

    // A failing card: the provider's message is shown and nothing is retried until saved again.
    const failing = await installation();
    await addCard(failing, '4000000000000341');
    await call(failing, 'POST', '/api/billing/auto-fill', { enabled: true, threshold: 3500, amount: 600 });
    await settled();
    for (let i = 0; i < 5; i++) app.autoFill.check(failing);
    await settled();
    const state = autoFillStateSchema.parse((await call(failing, 'GET', '/api/billing/auto-fill')).json());
    expect(state.last_error).toBe('Your card was declined.');
    const invoices = Object.values(app.billing.store.state.invoices).filter(
      (invoice) => invoice.metadata.installation_id === String(failing),
    );
    expect(invoices).toHaveLength(1);
  });

  it('keeps receipts to a valid address and sends them through the provider', async () => {
    const id = await installation();
    const invalid = await call(id, 'POST', '/api/billing/receipt-email', { email: 'nope' });
    expect(invalid.statusCode).toBe(422);
    expect(JSON.stringify(invalid.json())).toContain('Invalid email address');
    await addCard(id, '4242424242424242');
    expect(
      (await call(id, 'POST', '/api/billing/receipt-email', { email: 'billing@acme.test' })).json(),
    ).toEqual({
      email: 'billing@acme.test',
    });
    expect((await call(id, 'GET', '/api/billing/receipt-email')).json()).toEqual({
      email: 'billing@acme.test',
    });
    const bought = await call(id, 'POST', '/api/billing/purchase-credits', {
      credits: 500,
      idempotency_key: 'click-receipt',
    });
    const invoice = bought.json<{ invoice_id: string }>().invoice_id;
    expect(app.billing.store.state.receipts.filter((r) => r.invoice === invoice)).toEqual([
      expect.objectContaining({ to: 'billing@acme.test', amount: 500 }),
    ]);
    await call(id, 'POST', '/api/billing/receipt-email', { email: '' });
    expect((await call(id, 'GET', '/api/billing/receipt-email')).json()).toEqual({ email: '' });
  });

  it('answers 403 to members who are not admins on every billing call', async () => {
    const id = await installation();
    const calls: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown][] = [
      ['GET', '/api/billing/payment-methods'],
      ['POST', '/api/billing/setup-intent'],
      ['PUT', '/api/billing/default-payment-method', { payment_method_id: 'pm_x' }],
      ['DELETE', '/api/billing/delete-payment-method?payment_method_id=pm_x'],
      ['POST', '/api/billing/purchase-credits', { credits: 500, idempotency_key: 'click-member' }],
      ['GET', '/api/billing/auto-fill'],
      ['POST', '/api/billing/auto-fill', { enabled: true, threshold: 100, amount: 500 }],
      ['GET', '/api/billing/receipt-email'],
      ['POST', '/api/billing/receipt-email', { email: '' }],
    ];
    for (const [method, url, body] of calls) {
      const res = await call(id, method, url, body, 'member');
      expect([url, res.statusCode]).toEqual([url, 403]);
    }
    const gift = await call(
      id,
      'POST',
      '/api/billing/admin/gift-credits',
      { installation_id: id, credits: 10 },
      'admin',
    );
    expect(gift.statusCode).toBe(403); // an installation admin is not a Tandem admin
  });

  it('sets the default card and removes cards, moving the default to another first', async () => {
    const id = await installation();
    await addCard(id, '4242424242424242');
    await addCard(id, '5555555555554444');
    const list = paymentMethodListSchema.parse(
      (await call(id, 'GET', '/api/billing/payment-methods')).json(),
    );
    const mastercard = list.methods.find((m) => m.last4 === '4444')!.id;
    const visa = list.methods.find((m) => m.last4 === '4242')!.id;
    const set = await call(id, 'PUT', '/api/billing/default-payment-method', {
      payment_method_id: mastercard,
    });
    expect(paymentMethodListSchema.parse(set.json()).default_method).toBe(mastercard);
    const removed = await call(
      id,
      'DELETE',
      `/api/billing/delete-payment-method?payment_method_id=${mastercard}`,
    );
    expect(paymentMethodListSchema.parse(removed.json())).toMatchObject({
      default_method: visa,
      methods: [expect.objectContaining({ id: visa })],
    });
    // Another installation's card is not found here.
    const other = await installation();
    const foreign = await call(
      other,
      'DELETE',
      `/api/billing/delete-payment-method?payment_method_id=${visa}`,
    );
    expect(foreign.statusCode).toBe(404);
  });

  it('lets a Tandem admin gift credits, shown as a gift under Other', async () => {
    const id = await installation();
    const gift = await app.server.inject({
      method: 'POST',
      url: '/api/billing/admin/gift-credits',
      headers: { authorization: `Bearer ${ada.token}` },
      payload: { installation_id: id, credits: 250, description: 'Thanks for the bug report' },
    });
    expect(gift.json()).toEqual({ credits: 300_000 + 25_000 });
    const [row] = await transactions(id, '&agents=false&invoices=false');
    expect(row).toMatchObject({ kind: 'gift', amount: 25_000, description: 'Thanks for the bug report' });
    const byMember = await app.server.inject({
      method: 'POST',
      url: '/api/billing/admin/gift-credits',
      headers: { authorization: `Bearer ${bob.token}` },
      payload: { installation_id: id, credits: 250 },
    });
    expect(byMember.statusCode).toBe(403);
  });
});
