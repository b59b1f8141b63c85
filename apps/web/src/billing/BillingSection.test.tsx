import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bob, clientConfig, renderSignedIn } from '../agents/manager/test-support';
import { BillingSection } from './BillingSection';

const ada = {
  ...bob,
  user_id: 'u1',
  username: 'ada',
  installations: [{ ...bob.installations[0]!, role: 'admin' as const }],
};
const STANDIN = 'http://127.0.0.1:8082';
const config = clientConfig({
  billing: { mode: 'local', publishable_key: 'pk_test_local', local_api_url: STANDIN },
});
const visa = { id: 'pm_1', display_brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2035 };

interface Call {
  method: string;
  url: string;
  body: string;
  headers: Record<string, string>;
}
type Answer = [number, unknown] | undefined;

/** Answers the billing calls; `override` may answer first (errors, declines). */
function stubBilling(override: (call: Call) => Answer = () => undefined) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const call = {
        method: init?.method ?? 'GET',
        url,
        body: String(init?.body ?? ''),
        headers: (init?.headers ?? {}) as Record<string, string>,
      };
      calls.push(call);
      const [status, body] = override(call) ?? defaults(call);
      return new Response(JSON.stringify(body), { status });
    }),
  );
  return calls;
}

function defaults(call: Call): [number, unknown] {
  if (call.url === '/api/config') return [200, config];
  if (call.url.startsWith('/api/billing/credits-remaining')) return [200, { credits: 300_000 }];
  if (call.url === '/api/billing/payment-methods') return [200, { methods: [visa], default_method: 'pm_1' }];
  if (call.url === '/api/billing/auto-fill')
    return [200, { enabled: false, threshold: 500, amount: 2000, last_error: null }];
  if (call.url === '/api/billing/receipt-email')
    return [200, { email: call.method === 'POST' ? JSON.parse(call.body).email : '' }];
  if (call.url === '/api/billing/setup-intent') return [200, { client_secret: 'seti_1_secret_abc' }];
  if (call.url === `${STANDIN}/v1/setup_intents/seti_1/confirm`)
    return [200, { id: 'seti_1', status: 'succeeded' }];
  return [404, { detail: 'unexpected' }];
}

/** The button is enabled once the deployment's billing config is known. */
async function openAddCard() {
  const button = await screen.findByRole('button', { name: 'Add payment method' });
  await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(button);
}

function renderSection() {
  const notify = vi.fn();
  renderSignedIn(<BillingSection installationId={1000} notify={notify} />, { user: ada, path: '/settings' });
  return notify;
}

describe('BillingSection', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the balance and the cards, naming the installation on every billing call', async () => {
    const calls = stubBilling();
    renderSection();
    expect((await screen.findByTestId('credits-available')).textContent).toBe('3,000¢');
    expect(await screen.findByText(/Visa ending in 4242/)).toBeTruthy();
    expect(screen.getByText('Default')).toBeTruthy();
    for (const call of calls.filter((c) => c.url.startsWith('/api/billing/'))) {
      expect(call.headers['x-installation-id']).toBe('1000');
    }
  });

  it("shows the spec's error texts when billing data cannot be fetched", async () => {
    stubBilling((call) => (call.url.startsWith('/api/billing/') ? [500, { detail: 'boom' }] : undefined));
    renderSection();
    for (const text of [
      'Error fetching credits.',
      'Error fetching payment methods.',
      'Error fetching auto fill settings.',
      'Error fetching receipt email.',
    ]) {
      expect(await screen.findByText(text)).toBeTruthy();
    }
  });

  it('adds a card with the local form and says so', async () => {
    const calls = stubBilling();
    const notify = renderSection();
    await openAddCard();
    const form = await screen.findByRole('form', { name: 'Card details' });
    fireEvent.change(within(form).getByLabelText(/Card number/), {
      target: { value: '4242 4242 4242 4242' },
    });
    fireEvent.change(within(form).getByLabelText(/Expiry month/), { target: { value: '12' } });
    fireEvent.change(within(form).getByLabelText(/Expiry year/), { target: { value: '2034' } });
    fireEvent.change(within(form).getByLabelText(/CVC/), { target: { value: '123' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save card' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ severity: 'success', message: 'Payment method added' }),
    );
    const confirm = calls.find((c) => c.url.startsWith(STANDIN))!;
    expect(confirm.headers.authorization).toBe('Bearer pk_test_local');
    expect(new URLSearchParams(confirm.body).get('client_secret')).toBe('seti_1_secret_abc');
  });

  it("shows the provider's message when a card is declined", async () => {
    stubBilling((call) =>
      call.url.startsWith(STANDIN)
        ? [402, { error: { type: 'card_error', message: 'Your card was declined.' } }]
        : undefined,
    );
    const notify = renderSection();
    await openAddCard();
    const form = await screen.findByRole('form', { name: 'Card details' });
    for (const [label, value] of [
      [/Card number/, '4000000000000002'],
      [/Expiry month/, '12'],
      [/Expiry year/, '2034'],
      [/CVC/, '123'],
    ] as const) {
      fireEvent.change(within(form).getByLabelText(label), { target: { value } });
    }
    fireEvent.click(within(form).getByRole('button', { name: 'Save card' }));
    expect(await within(form).findByText('Your card was declined.')).toBeTruthy();
    expect(notify).not.toHaveBeenCalled();
  });

  it('asks for a receipt email when the account has none: Escape cancels, Enter saves a valid one', async () => {
    const calls = stubBilling();
    const notify = renderSection();
    const toggle = await screen.findByRole('switch', { name: 'Email receipts' });
    fireEvent.click(toggle);
    const input = await screen.findByRole('textbox', { name: 'Receipt email' });
    fireEvent.keyDown(input, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Receipt email' })).toBeNull());
    fireEvent.click(toggle);
    const again = await screen.findByRole('textbox', { name: 'Receipt email' });
    fireEvent.change(again, { target: { value: 'nope' } });
    fireEvent.keyDown(again, { key: 'Enter' });
    expect(await screen.findByText('Invalid email address')).toBeTruthy();
    fireEvent.change(again, { target: { value: 'billing@acme.test' } });
    fireEvent.keyDown(again, { key: 'Enter' });
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        severity: 'success',
        message: 'Updated Receipt Email Successfully',
      }),
    );
    expect(calls.find((c) => c.method === 'POST' && c.url === '/api/billing/receipt-email')?.body).toBe(
      JSON.stringify({ email: 'billing@acme.test' }),
    );
  });
});

describe('BillingSection purchases and auto-fill', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("buys with the default card and shows a decline's own message", async () => {
    const calls = stubBilling((call) =>
      call.url === '/api/billing/purchase-credits'
        ? [402, { detail: 'Your card was declined.', code: 'payment_required' }]
        : undefined,
    );
    renderSection();
    const input = await screen.findByRole('textbox', { name: 'Credits' });
    fireEvent.change(input, { target: { value: '400' } });
    fireEvent.blur(input);
    expect(await screen.findByText('Minimum 500')).toBeTruthy();
    fireEvent.change(input, { target: { value: '1000' } });
    await screen.findByText(/Visa ending in 4242/);
    fireEvent.click(screen.getByRole('button', { name: 'Buy credits' }));
    expect(await screen.findByText('Your card was declined.')).toBeTruthy();
    const purchase = calls.find((c) => c.url === '/api/billing/purchase-credits')!;
    expect(JSON.parse(purchase.body)).toMatchObject({ credits: 1000 });
    expect(JSON.parse(purchase.body).idempotency_key).toMatch(/^[\w-]{8,}$/);
  });

  it("shows a failed auto-fill's message and saves the settings", async () => {
    const calls = stubBilling((call) =>
      call.url === '/api/billing/auto-fill' && call.method === 'GET'
        ? [200, { enabled: true, threshold: 500, amount: 2000, last_error: 'Your card was declined.' }]
        : call.url === '/api/billing/auto-fill'
          ? [200, { ...JSON.parse(call.body), last_error: null }]
          : undefined,
    );
    const notify = renderSection();
    expect(await screen.findByText(/The last auto-fill failed: Your card was declined\./)).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'When credits fall below' }), {
      target: { value: '800' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save auto-fill' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ severity: 'success', message: 'Auto-fill settings saved' }),
    );
    expect(
      JSON.parse(calls.find((c) => c.method === 'POST' && c.url === '/api/billing/auto-fill')!.body),
    ).toEqual({
      enabled: true,
      threshold: 800,
      amount: 2000,
    });
  });
});
