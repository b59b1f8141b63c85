import type { Db } from '@tandem/db';
import type { PaymentMethodList, SetupIntent } from '@tandem/shared';
import type Stripe from 'stripe';
import type { BillingProvider } from '../../billing/billing-setup.js';
import { notFound } from '../../errors/app-error.js';
import { ensureCustomer, existingCustomer, stripeCall, toPaymentMethod } from './billing-account.js';

/** The installation's cards and which one is charged (platform §3). */
export async function listPaymentMethods(
  db: Db,
  billing: BillingProvider,
  installationId: number,
): Promise<PaymentMethodList> {
  const customerId = await existingCustomer(db, billing, installationId);
  if (!customerId) return { methods: [], default_method: null };
  const [methods, customer] = await Promise.all([
    stripeCall(() => billing.stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 100 })),
    stripeCall(() => billing.stripe.customers.retrieve(customerId)),
  ]);
  // No default chosen yet: the first card added (Stripe lists newest first).
  const fallback = methods.data.at(-1)?.id ?? null;
  return {
    methods: methods.data.map(toPaymentMethod),
    default_method: defaultMethodOf(customer) ?? fallback,
  };
}

function defaultMethodOf(customer: Stripe.Customer | Stripe.DeletedCustomer): string | null {
  if (customer.deleted) return null;
  const method = customer.invoice_settings.default_payment_method;
  return typeof method === 'string' ? method : (method?.id ?? null);
}

/** A setup the browser confirms with the card (Stripe.js, or the local form); no redirect forced. */
export async function createSetupIntent(
  db: Db,
  billing: BillingProvider,
  installationId: number,
): Promise<SetupIntent> {
  const customer = await ensureCustomer(db, billing, installationId);
  const intent = await stripeCall(() =>
    billing.stripe.setupIntents.create({ customer, usage: 'off_session' }),
  );
  return { client_secret: intent.client_secret ?? '' };
}

/** A card of this installation's customer, or 404 (someone else's id changes nothing). */
async function ownMethod(db: Db, billing: BillingProvider, installationId: number, id: string) {
  const customerId = await existingCustomer(db, billing, installationId);
  if (!customerId) throw notFound('Payment method not found');
  const pm = await stripeCall(() => billing.stripe.paymentMethods.retrieve(id));
  const owner = typeof pm.customer === 'string' ? pm.customer : pm.customer?.id;
  if (owner !== customerId) throw notFound('Payment method not found');
  return { customerId, pm };
}

export async function setDefaultPaymentMethod(
  db: Db,
  billing: BillingProvider,
  installationId: number,
  paymentMethodId: string,
): Promise<PaymentMethodList> {
  const { customerId } = await ownMethod(db, billing, installationId, paymentMethodId);
  await stripeCall(() =>
    billing.stripe.customers.update(customerId, {
      invoice_settings: { default_payment_method: paymentMethodId },
    }),
  );
  return listPaymentMethods(db, billing, installationId);
}

/** Removing the default first makes another card the default, when there is one (platform §4). */
export async function deletePaymentMethod(
  db: Db,
  billing: BillingProvider,
  installationId: number,
  paymentMethodId: string,
): Promise<PaymentMethodList> {
  const { customerId } = await ownMethod(db, billing, installationId, paymentMethodId);
  const current = await listPaymentMethods(db, billing, installationId);
  if (current.default_method === paymentMethodId) {
    const next = current.methods.find((m) => m.id !== paymentMethodId)?.id ?? null;
    await stripeCall(() =>
      billing.stripe.customers.update(customerId, {
        invoice_settings: { default_payment_method: next ?? '' },
      }),
    );
  }
  await stripeCall(() => billing.stripe.paymentMethods.detach(paymentMethodId));
  return listPaymentMethods(db, billing, installationId);
}
