import { z } from 'zod';

/**
 * Buying credits (docs/decisions.md "Billing"): 1 credit = 1 US cent, bought in whole credits.
 * The bounds keep a typo from charging a card $10 000 and keep card fees sensible.
 */
export const PURCHASE_CREDITS_MIN = 500;
export const PURCHASE_CREDITS_MAX = 100_000;
/** Auto-fill buys `amount` credits when the balance falls below `threshold` credits. */
export const AUTO_FILL_THRESHOLD_MAX = 100_000;
/** A gift from a product admin, in credits. */
export const GIFT_CREDITS_MAX = 1_000_000;

const credits = (min: number, max: number) =>
  z.number().int('must be a whole number of credits').min(min, `Minimum ${min}`).max(max, `Maximum ${max}`);

/** Platform §3 Payment method. */
export const paymentMethodSchema = z.object({
  id: z.string(),
  display_brand: z.string(),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

/** GET /api/billing/payment-methods */
export const paymentMethodListSchema = z.object({
  methods: z.array(paymentMethodSchema),
  default_method: z.string().nullable(),
});
export type PaymentMethodList = z.infer<typeof paymentMethodListSchema>;

/** POST /api/billing/setup-intent: confirmed by the browser (Stripe.js, or the local card form). */
export const setupIntentSchema = z.object({ client_secret: z.string() });
export type SetupIntent = z.infer<typeof setupIntentSchema>;

/** PUT /api/billing/default-payment-method */
export const defaultPaymentMethodSchema = z.object({ payment_method_id: z.string().min(1).max(255) });
export type DefaultPaymentMethod = z.infer<typeof defaultPaymentMethodSchema>;

/** DELETE /api/billing/delete-payment-method?payment_method_id= */
export const deletePaymentMethodQuerySchema = defaultPaymentMethodSchema;

/** POST /api/billing/purchase-credits: charged to the default payment method. */
export const purchaseCreditsSchema = z.object({
  credits: credits(PURCHASE_CREDITS_MIN, PURCHASE_CREDITS_MAX),
  /** The browser's key for this click: a retried request never charges twice. */
  idempotency_key: z
    .string()
    .min(8)
    .max(100)
    .regex(/^[\w-]+$/),
});
export type PurchaseCredits = z.infer<typeof purchaseCreditsSchema>;

/** The invoice was paid; its credits land when the provider's webhook confirms it. */
export const purchaseResultSchema = z.object({ invoice_id: z.string(), status: z.string() });
export type PurchaseResult = z.infer<typeof purchaseResultSchema>;

/** GET /api/billing/invoice-url?invoice_id= */
export const invoiceUrlQuerySchema = z.object({ invoice_id: z.string().min(1).max(255) });
export const invoiceUrlSchema = z.object({ url: z.string() });
export type InvoiceUrl = z.infer<typeof invoiceUrlSchema>;

/** POST /api/billing/auto-fill */
export const autoFillSettingsSchema = z.object({
  enabled: z.boolean(),
  threshold: credits(0, AUTO_FILL_THRESHOLD_MAX),
  amount: credits(PURCHASE_CREDITS_MIN, PURCHASE_CREDITS_MAX),
});
export type AutoFillSettings = z.infer<typeof autoFillSettingsSchema>;

/** GET /api/billing/auto-fill: the settings and the last failed charge's message, if any. */
export const autoFillStateSchema = autoFillSettingsSchema.extend({ last_error: z.string().nullable() });
export type AutoFillState = z.infer<typeof autoFillStateSchema>;

/** Platform §5: empty (no receipts) or an address. */
export const receiptEmailSchema = z.object({
  email: z
    .string()
    .trim()
    .max(254)
    .refine((v) => v === '' || z.string().email().safeParse(v).success, 'Invalid email address'),
});
export type ReceiptEmail = z.infer<typeof receiptEmailSchema>;

/** POST /api/billing/admin/gift-credits (product admins). */
export const giftCreditsSchema = z.object({
  installation_id: z.number().int().positive(),
  credits: credits(1, GIFT_CREDITS_MAX),
  description: z.string().trim().min(1).max(200).optional(),
});
export type GiftCredits = z.infer<typeof giftCreditsSchema>;
export const giftResultSchema = z.object({ credits: z.number().int() });

/** How the web app adds cards: Stripe Elements, or the local stand-in's form (GET /api/config). */
export const billingClientConfigSchema = z.object({
  mode: z.enum(['stripe', 'local']),
  publishable_key: z.string(),
  /** The local stand-in's URL (local mode only). */
  local_api_url: z.string().nullable(),
});
export type BillingClientConfig = z.infer<typeof billingClientConfigSchema>;

/** Platform §8 payment texts, word for word. */
export const PAYMENT_MESSAGES = {
  added: 'Payment method added',
  addError: 'There was an error attempting to add a new payment method. Please reload or try again later.',
  paymentMethods: 'Error fetching payment methods.',
  autoFill: 'Error fetching auto fill settings.',
  receiptEmail: 'Error fetching receipt email.',
  setDefault: 'Error setting default payment method',
  remove: 'Error removing payment method',
  confirmation: 'An error occurred',
  invoiceUrl: 'Failed to fetch invoice URL.',
  receiptUpdateFailed: 'Failed to update receipt email',
  receiptUpdated: 'Updated Receipt Email Successfully',
  invalidEmail: 'Invalid email address',
  noPaymentMethod: 'Add a payment method before buying credits.',
  notConfigured: 'Billing is not configured on this server.',
  giftDescription: 'Credits gifted by Tandem',
} as const;
