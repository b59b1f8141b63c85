import type {
  LocalCustomer,
  LocalInvoice,
  LocalPaymentIntent,
  LocalPaymentMethod,
  LocalSetupIntent,
} from './store.js';

/** The stand-in's objects in Stripe's JSON shapes (the fields the server and Stripe.js read). */
export function customerJson(c: LocalCustomer) {
  return {
    id: c.id,
    object: 'customer',
    created: c.created,
    email: c.email,
    metadata: c.metadata,
    invoice_settings: { default_payment_method: c.defaultPaymentMethod, custom_fields: null, footer: null },
    livemode: false,
  };
}

export function paymentMethodJson(pm: LocalPaymentMethod) {
  return {
    id: pm.id,
    object: 'payment_method',
    type: 'card',
    created: pm.created,
    customer: pm.customer,
    metadata: {},
    livemode: false,
    billing_details: { address: null, email: null, name: null, phone: null },
    card: {
      brand: pm.brand,
      display_brand: pm.brand,
      last4: pm.last4,
      exp_month: pm.expMonth,
      exp_year: pm.expYear,
      funding: 'credit',
      country: 'US',
    },
  };
}

export function setupIntentJson(si: LocalSetupIntent) {
  return {
    id: si.id,
    object: 'setup_intent',
    client_secret: si.clientSecret,
    created: si.created,
    customer: si.customer,
    payment_method: si.paymentMethod,
    payment_method_types: ['card'],
    status: si.status,
    usage: 'off_session',
    livemode: false,
  };
}

export function invoiceJson(invoice: LocalInvoice, baseUrl: string) {
  const total = invoice.lines.reduce((sum, line) => sum + line.amount, 0);
  const visible = invoice.status !== 'draft';
  return {
    id: invoice.id,
    object: 'invoice',
    created: invoice.created,
    customer: invoice.customer,
    status: invoice.status,
    currency: 'usd',
    description: invoice.description,
    metadata: invoice.metadata,
    amount_due: total,
    amount_paid: invoice.status === 'paid' ? total : 0,
    total,
    hosted_invoice_url: visible ? `${baseUrl}/invoices/${invoice.id}` : null,
    invoice_pdf: null,
    livemode: false,
    lines: {
      object: 'list',
      has_more: false,
      data: invoice.lines.map((line, index) => ({
        id: `il_${invoice.id}_${index}`,
        object: 'line_item',
        amount: line.amount,
        currency: 'usd',
        description: line.description,
      })),
    },
  };
}

export function paymentIntentJson(pi: LocalPaymentIntent) {
  return {
    id: pi.id,
    object: 'payment_intent',
    created: pi.created,
    amount: pi.amount,
    amount_received: pi.status === 'succeeded' ? pi.amount : 0,
    currency: pi.currency,
    customer: pi.customer,
    status: pi.status,
    payment_method: pi.paymentMethod,
    metadata: pi.metadata,
    receipt_email: pi.receiptEmail,
    livemode: false,
  };
}

/** Stripe's error body; `type` picks the library's error class (card_error → StripeCardError). */
export function stripeError(
  type: 'card_error' | 'invalid_request_error' | 'authentication_error' | 'idempotency_error',
  message: string,
  extra: { code?: string; decline_code?: string; param?: string } = {},
) {
  return { error: { type, message, ...extra } };
}
