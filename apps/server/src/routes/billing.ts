import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '@tandem/db';
import {
  autoFillSettingsSchema,
  creditsQuerySchema,
  defaultPaymentMethodSchema,
  deletePaymentMethodQuerySchema,
  giftCreditsSchema,
  invoiceUrlQuerySchema,
  PAYMENT_MESSAGES,
  purchaseCreditsSchema,
  receiptEmailSchema,
  transactionsQuerySchema,
  type AutoFillState,
  type CreditsRemaining,
  type InvoiceUrl,
  type PaymentMethodList,
  type PurchaseResult,
  type ReceiptEmail,
  type SetupIntent,
  type TransactionList,
} from '@tandem/shared';
import { requireUser } from '../auth/authenticate.js';
import type { BillingProvider } from '../billing/billing-setup.js';
import { AppError, forbidden } from '../errors/app-error.js';
import { requestedInstallation } from '../http/installation-header.js';
import { parseRequest } from '../http/validation.js';
import { applyBillingEvent, verifyBillingEvent } from '../services/billing/apply-billing-event.js';
import { getAutoFill, updateAutoFill, type AutoFill } from '../services/billing/auto-fill.js';
import { creditsRemaining } from '../services/billing/credits-remaining.js';
import { giftCredits } from '../services/billing/gift-credits.js';
import { invoiceUrl } from '../services/billing/invoice-url.js';
import { listTransactions } from '../services/billing/list-transactions.js';
import {
  createSetupIntent,
  deletePaymentMethod,
  listPaymentMethods,
  setDefaultPaymentMethod,
} from '../services/billing/payment-methods.js';
import { purchaseCredits } from '../services/billing/purchase-credits.js';
import type { SunsetGate } from '../services/sunset-gate.js';
import { getReceiptEmail, setReceiptEmail } from '../services/billing/receipt-email.js';
import { installationAccess, installationAdminAccess } from '../services/settings/installation-access.js';

export interface BillingRouteDeps {
  db: Db;
  /** Stripe or the local stand-in; without one the payment calls answer 503. */
  billing?: BillingProvider;
  autoFill: AutoFill;
  /** Sunset mode may close buying (DESIGN.md §9). */
  sunset?: Pick<SunsetGate, 'requireBuying'>;
}

/**
 * Billing (platform §7). The ledger and balance: any member of the installation. Payment methods,
 * purchases, auto-fill and receipts: installation admins (403 otherwise), naming the installation
 * in X-Installation-ID. Gifts: product admins. `POST /api/billing/webhook` takes Stripe's events.
 */
export function billingRoutes(app: FastifyInstance, deps: BillingRouteDeps): void {
  const { db } = deps;
  const provider = (): BillingProvider => {
    if (!deps.billing) throw new AppError('unavailable', PAYMENT_MESSAGES.notConfigured);
    return deps.billing;
  };
  const admin = async (request: FastifyRequest) => {
    const user = requireUser(request);
    return installationAdminAccess(db, user.id, requestedInstallation(request));
  };

  app.get('/api/billing/transactions', async (request) => {
    const user = requireUser(request);
    const query = parseRequest(transactionsQuerySchema, request.query, 'query');
    const access = await installationAccess(db, user.id, query.installation_id);
    const body: TransactionList = await listTransactions(db, {
      installationId: access.installationId,
      page: query.page,
      rowsPerPage: query.rows_per_page,
      agents: query.agents,
      invoices: query.invoices,
      other: query.other,
    });
    return body;
  });

  app.get('/api/billing/credits-remaining', async (request) => {
    const user = requireUser(request);
    const { installation_id } = parseRequest(creditsQuerySchema, request.query, 'query');
    const access = await installationAccess(db, user.id, installation_id);
    const body: CreditsRemaining = await creditsRemaining(db, access.installationId);
    return body;
  });

  app.get('/api/billing/payment-methods', async (request) => {
    const access = await admin(request);
    const body: PaymentMethodList = await listPaymentMethods(db, provider(), access.installationId);
    return body;
  });

  app.post('/api/billing/setup-intent', async (request) => {
    const access = await admin(request);
    const body: SetupIntent = await createSetupIntent(db, provider(), access.installationId);
    return body;
  });

  app.put('/api/billing/default-payment-method', async (request) => {
    requireUser(request);
    const { payment_method_id } = parseRequest(defaultPaymentMethodSchema, request.body, 'body');
    const access = await admin(request);
    const body: PaymentMethodList = await setDefaultPaymentMethod(
      db,
      provider(),
      access.installationId,
      payment_method_id,
    );
    return body;
  });

  app.delete('/api/billing/delete-payment-method', async (request) => {
    requireUser(request);
    const { payment_method_id } = parseRequest(deletePaymentMethodQuerySchema, request.query, 'query');
    const access = await admin(request);
    const body: PaymentMethodList = await deletePaymentMethod(
      db,
      provider(),
      access.installationId,
      payment_method_id,
    );
    return body;
  });

  app.post('/api/billing/purchase-credits', async (request) => {
    requireUser(request);
    const purchase = parseRequest(purchaseCreditsSchema, request.body, 'body');
    const access = await admin(request);
    deps.sunset?.requireBuying();
    const body: PurchaseResult = await purchaseCredits(db, provider(), access.installationId, purchase);
    return body;
  });

  app.get('/api/billing/invoice-url', async (request) => {
    const user = requireUser(request);
    const access = await installationAccess(db, user.id, requestedInstallation(request));
    const { invoice_id } = parseRequest(invoiceUrlQuerySchema, request.query, 'query');
    const body: InvoiceUrl = await invoiceUrl(db, provider(), access.installationId, invoice_id);
    return body;
  });

  app.get('/api/billing/auto-fill', async (request) => {
    const access = await admin(request);
    const body: AutoFillState = await getAutoFill(db, access.installationId);
    return body;
  });

  app.post('/api/billing/auto-fill', async (request) => {
    requireUser(request);
    const settings = parseRequest(autoFillSettingsSchema, request.body, 'body');
    const access = await admin(request);
    const body: AutoFillState = await updateAutoFill(db, access.installationId, settings);
    // Turned on below the threshold: top up now rather than at the next spend.
    deps.autoFill.check(access.installationId);
    return body;
  });

  app.get('/api/billing/receipt-email', async (request) => {
    const access = await admin(request);
    const body: ReceiptEmail = await getReceiptEmail(db, access.installationId);
    return body;
  });

  app.post('/api/billing/receipt-email', async (request) => {
    requireUser(request);
    const change = parseRequest(receiptEmailSchema, request.body, 'body');
    const access = await admin(request);
    const body: ReceiptEmail = await setReceiptEmail(db, deps.billing, access.installationId, change);
    return body;
  });

  app.post('/api/billing/admin/gift-credits', async (request) => {
    const user = requireUser(request);
    if (!user.admin) throw forbidden('Only Tandem admins can gift credits');
    const gift = parseRequest(giftCreditsSchema, request.body, 'body');
    return giftCredits(db, gift);
  });

  app.register(async (scope) => {
    // The signature covers the raw bytes: keep them (re-serialised JSON would not match).
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: 1024 * 1024 },
      (_req, body, done) => done(null, body),
    );
    scope.post('/api/billing/webhook', async (request) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const signature = request.headers['stripe-signature'];
      const event = verifyBillingEvent(
        provider(),
        raw,
        typeof signature === 'string' ? signature : undefined,
      );
      const outcome = await applyBillingEvent(db, event, request.log);
      return { received: true, outcome };
    });
  });
}
