import { randomBytes } from 'node:crypto';
import { cardOutcome, type CardDecline } from './cards.js';
import { object, strings, text, type FormObject } from './form.js';
import {
  customerJson,
  invoiceJson,
  paymentIntentJson,
  paymentMethodJson,
  setupIntentJson,
  stripeError,
} from './objects.js';
import { newId, nowSeconds, type LocalStripeStore } from './store.js';
import type { WebhookSender } from './webhook-sender.js';

export interface ApiRequest {
  method: string;
  path: string;
  form: FormObject;
  /** Which key authenticated the call: the browser may only confirm setup intents. */
  key: 'secret' | 'publishable';
}

export interface ApiResponse {
  status: number;
  body: unknown;
}

const ok = (body: unknown): ApiResponse => ({ status: 200, body });
const missing = (kind: string, id: string): ApiResponse => ({
  status: 404,
  body: stripeError('invalid_request_error', `No such ${kind}: '${id}'`, { code: 'resource_missing' }),
});
const invalid = (message: string, param?: string): ApiResponse => ({
  status: 400,
  body: stripeError('invalid_request_error', message, param ? { param } : {}),
});
const declined = (decline: CardDecline): ApiResponse => ({
  status: 402,
  body: stripeError('card_error', decline.message, {
    code: decline.code,
    ...(decline.declineCode ? { decline_code: decline.declineCode } : {}),
  }),
});

/**
 * The subset of Stripe's REST API the server (and, for confirming a card, the browser) uses:
 * customers, setup intents, payment methods, invoices with their items, finalize and pay.
 */
export class LocalStripeApi {
  constructor(
    private readonly store: LocalStripeStore,
    private readonly webhooks: WebhookSender,
    private readonly baseUrl: () => string,
  ) {}

  handle(request: ApiRequest): ApiResponse {
    const { method, path, form } = request;
    const parts = path.split('/').filter(Boolean).slice(1); // drop 'v1'
    const [resource, id, action] = parts;
    if (request.key === 'publishable' && !(resource === 'setup_intents' && action === 'confirm')) {
      return {
        status: 401,
        body: stripeError('authentication_error', 'This API call cannot be made with a publishable API key.'),
      };
    }
    const route = `${method} ${resource ?? ''}${id ? '/:id' : ''}${action ? `/${action}` : ''}`;
    switch (route) {
      case 'POST customers':
        return this.createCustomer(form);
      case 'GET customers/:id':
        return this.withCustomer(id!, (c) => ok(customerJson(c)));
      case 'POST customers/:id':
        return this.updateCustomer(id!, form);
      case 'GET customers/:id/payment_methods':
        return this.listPaymentMethods(id!);
      case 'POST setup_intents':
        return this.createSetupIntent(form);
      case 'GET setup_intents/:id': {
        const si = this.store.state.setupIntents[id!];
        return si ? ok(setupIntentJson(si)) : missing('setup_intent', id!);
      }
      case 'POST setup_intents/:id/confirm':
        return this.confirmSetupIntent(id!, form, request.key);
      case 'GET payment_methods/:id': {
        const pm = this.store.state.paymentMethods[id!];
        return pm ? ok(paymentMethodJson(pm)) : missing('payment_method', id!);
      }
      case 'POST payment_methods/:id/detach':
        return this.detach(id!);
      case 'POST invoices':
        return this.createInvoice(form);
      case 'GET invoices/:id': {
        const invoice = this.store.state.invoices[id!];
        return invoice ? ok(invoiceJson(invoice, this.baseUrl())) : missing('invoice', id!);
      }
      case 'POST invoiceitems':
        return this.addInvoiceItem(form);
      case 'POST invoices/:id/finalize':
        return this.finalize(id!);
      case 'POST invoices/:id/pay':
        return this.pay(id!, form);
      case 'POST invoices/:id/void':
        return this.voidInvoice(id!);
      default:
        return {
          status: 404,
          body: stripeError('invalid_request_error', `Unrecognized request URL (${method}: ${path}).`),
        };
    }
  }

  private withCustomer(
    id: string,
    then: (c: NonNullable<(typeof this.store.state.customers)[string]>) => ApiResponse,
  ) {
    const customer = this.store.state.customers[id];
    return customer ? then(customer) : missing('customer', id);
  }

  private createCustomer(form: FormObject): ApiResponse {
    const customer = {
      id: newId('cus'),
      email: text(form, 'email') || null,
      metadata: strings(form, 'metadata'),
      defaultPaymentMethod: null,
      created: nowSeconds(),
    };
    this.store.state.customers[customer.id] = customer;
    this.store.save();
    return ok(customerJson(customer));
  }

  private updateCustomer(id: string, form: FormObject): ApiResponse {
    return this.withCustomer(id, (customer) => {
      if ('email' in form) customer.email = text(form, 'email') || null;
      Object.assign(customer.metadata, strings(form, 'metadata'));
      const settings = object(form, 'invoice_settings');
      if ('default_payment_method' in settings) {
        const pmId =
          typeof settings.default_payment_method === 'string' ? settings.default_payment_method : '';
        const pm = this.store.state.paymentMethods[pmId];
        if (pmId && pm?.customer !== id) {
          return invalid(`No such PaymentMethod: '${pmId}'`, 'invoice_settings[default_payment_method]');
        }
        customer.defaultPaymentMethod = pmId || null;
      }
      this.store.save();
      return ok(customerJson(customer));
    });
  }

  private listPaymentMethods(customerId: string): ApiResponse {
    return this.withCustomer(customerId, () => {
      const data = Object.values(this.store.state.paymentMethods)
        .filter((pm) => pm.customer === customerId)
        // Newest first, as Stripe lists them (insertion order breaks ties within a second).
        .reverse()
        .sort((a, b) => b.created - a.created)
        .map(paymentMethodJson);
      return ok({
        object: 'list',
        data,
        has_more: false,
        url: `/v1/customers/${customerId}/payment_methods`,
      });
    });
  }

  private createSetupIntent(form: FormObject): ApiResponse {
    const customer = text(form, 'customer') ?? null;
    if (customer && !this.store.state.customers[customer]) return missing('customer', customer);
    const id = newId('seti');
    const si = {
      id,
      clientSecret: `${id}_secret_${randomBytes(12).toString('base64url')}`,
      customer,
      status: 'requires_payment_method' as const,
      paymentMethod: null,
      created: nowSeconds(),
    };
    this.store.state.setupIntents[id] = si;
    this.store.save();
    return ok(setupIntentJson(si));
  }

  /** Card details in `payment_method_data[card]`, as Stripe.js sends them for a card element. */
  private confirmSetupIntent(id: string, form: FormObject, key: ApiRequest['key']): ApiResponse {
    const si = this.store.state.setupIntents[id];
    if (!si) return missing('setup_intent', id);
    if (key === 'publishable' && text(form, 'client_secret') !== si.clientSecret) {
      return invalid(
        'The client_secret provided does not match the client_secret associated with the SetupIntent.',
        'client_secret',
      );
    }
    if (si.status !== 'requires_payment_method') {
      return invalid(`You cannot confirm this SetupIntent because it has a status of ${si.status}.`);
    }
    const card = object(object(form, 'payment_method_data'), 'card');
    const number = typeof card.number === 'string' ? card.number.replace(/[\s-]/g, '') : '';
    const expMonth = Number(card.exp_month);
    const rawYear = Number(card.exp_year);
    const expYear = rawYear < 100 ? 2000 + rawYear : rawYear;
    if (!number)
      return invalid(
        'Missing required param: payment_method_data[card][number].',
        'payment_method_data[card][number]',
      );
    const outcome = cardOutcome(number, expMonth, expYear);
    if (outcome.setupDecline) return declined(outcome.setupDecline);
    const pm = {
      id: newId('pm'),
      customer: si.customer,
      brand: outcome.brand,
      last4: number.slice(-4),
      number,
      expMonth,
      expYear,
      created: nowSeconds(),
    };
    this.store.state.paymentMethods[pm.id] = pm;
    si.status = 'succeeded';
    si.paymentMethod = pm.id;
    this.store.save();
    this.webhooks.send('setup_intent.succeeded', setupIntentJson(si));
    return ok(setupIntentJson(si));
  }

  private detach(id: string): ApiResponse {
    const pm = this.store.state.paymentMethods[id];
    if (!pm) return missing('payment_method', id);
    if (!pm.customer)
      return invalid(
        'The payment method you provided is not attached to a customer so detachment is impossible.',
      );
    const customer = this.store.state.customers[pm.customer];
    if (customer?.defaultPaymentMethod === id) customer.defaultPaymentMethod = null;
    pm.customer = null;
    this.store.save();
    return ok(paymentMethodJson(pm));
  }

  private createInvoice(form: FormObject): ApiResponse {
    const customer = text(form, 'customer') ?? '';
    if (!this.store.state.customers[customer]) return missing('customer', customer);
    const invoice = {
      id: newId('in'),
      customer,
      status: 'draft' as const,
      description: text(form, 'description') ?? null,
      metadata: strings(form, 'metadata'),
      lines: [],
      paymentIntent: null,
      created: nowSeconds(),
    };
    this.store.state.invoices[invoice.id] = invoice;
    this.store.save();
    return ok(invoiceJson(invoice, this.baseUrl()));
  }

  private addInvoiceItem(form: FormObject): ApiResponse {
    const invoiceId = text(form, 'invoice') ?? '';
    const invoice = this.store.state.invoices[invoiceId];
    if (!invoice) return missing('invoice', invoiceId);
    if (invoice.status !== 'draft')
      return invalid('You can only add invoice items to draft invoices.', 'invoice');
    const amount = Number(text(form, 'amount'));
    if (!Number.isInteger(amount) || amount <= 0) return invalid('Invalid integer: amount', 'amount');
    invoice.lines.push({ amount, description: text(form, 'description') ?? null });
    this.store.save();
    return ok({ id: newId('ii'), object: 'invoiceitem', amount, currency: 'usd', invoice: invoiceId });
  }

  private finalize(id: string): ApiResponse {
    const invoice = this.store.state.invoices[id];
    if (!invoice) return missing('invoice', id);
    if (invoice.status === 'draft') invoice.status = 'open';
    this.store.save();
    return ok(invoiceJson(invoice, this.baseUrl()));
  }

  private voidInvoice(id: string): ApiResponse {
    const invoice = this.store.state.invoices[id];
    if (!invoice) return missing('invoice', id);
    if (invoice.status !== 'open')
      return invalid(`You can only pass in open invoices. This invoice isn't open.`);
    invoice.status = 'void';
    this.store.save();
    return ok(invoiceJson(invoice, this.baseUrl()));
  }

  /** Charges the invoice to the given method or the customer's default, off-session. */
  private pay(id: string, form: FormObject): ApiResponse {
    const invoice = this.store.state.invoices[id];
    if (!invoice) return missing('invoice', id);
    if (invoice.status === 'paid') return invalid('Invoice is already paid');
    if (invoice.status === 'void') return invalid('This invoice has been voided and cannot be paid.');
    invoice.status = 'open';
    const customer = this.store.state.customers[invoice.customer]!;
    const pmId = text(form, 'payment_method') ?? customer.defaultPaymentMethod;
    const pm = pmId ? this.store.state.paymentMethods[pmId] : undefined;
    if (!pm || pm.customer !== customer.id) {
      return invalid('This customer has no attached payment source or default payment method.');
    }
    const outcome = cardOutcome(pm.number, pm.expMonth, pm.expYear);
    const decline = outcome.setupDecline ?? outcome.chargeDecline;
    if (decline) {
      this.store.save();
      return declined(decline);
    }
    const amount = invoice.lines.reduce((sum, line) => sum + line.amount, 0);
    const pi = {
      id: newId('pi'),
      customer: customer.id,
      amount,
      currency: 'usd',
      status: 'succeeded' as const,
      paymentMethod: pm.id,
      invoice: invoice.id,
      metadata: invoice.metadata,
      receiptEmail: customer.email,
      created: nowSeconds(),
    };
    this.store.state.paymentIntents[pi.id] = pi;
    invoice.status = 'paid';
    invoice.paymentIntent = pi.id;
    if (customer.email) {
      this.store.state.receipts.push({
        to: customer.email,
        invoice: invoice.id,
        amount,
        sentAt: new Date().toISOString(),
      });
    }
    this.store.save();
    const json = invoiceJson(invoice, this.baseUrl());
    this.webhooks.send('payment_intent.succeeded', paymentIntentJson(pi));
    this.webhooks.send('invoice.paid', json);
    return ok(json);
  }
}
