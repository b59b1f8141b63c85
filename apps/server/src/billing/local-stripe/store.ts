import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The objects the stand-in keeps, in the fields of Stripe's own that the server reads. */
export interface LocalCustomer {
  id: string;
  email: string | null;
  metadata: Record<string, string>;
  defaultPaymentMethod: string | null;
  created: number;
}

export interface LocalPaymentMethod {
  id: string;
  customer: string | null;
  brand: string;
  last4: string;
  /** The full number stays in the stand-in (it decides outcomes), never in responses. */
  number: string;
  expMonth: number;
  expYear: number;
  created: number;
}

export interface LocalSetupIntent {
  id: string;
  clientSecret: string;
  customer: string | null;
  status: 'requires_payment_method' | 'succeeded' | 'canceled';
  paymentMethod: string | null;
  created: number;
}

export interface LocalInvoice {
  id: string;
  customer: string;
  status: 'draft' | 'open' | 'paid' | 'void';
  description: string | null;
  metadata: Record<string, string>;
  lines: { amount: number; description: string | null }[];
  paymentIntent: string | null;
  created: number;
}

export interface LocalPaymentIntent {
  id: string;
  customer: string | null;
  amount: number;
  currency: string;
  status: 'succeeded' | 'requires_payment_method';
  paymentMethod: string | null;
  invoice: string | null;
  metadata: Record<string, string>;
  receiptEmail: string | null;
  created: number;
}

export interface LocalStripeState {
  customers: Record<string, LocalCustomer>;
  paymentMethods: Record<string, LocalPaymentMethod>;
  setupIntents: Record<string, LocalSetupIntent>;
  invoices: Record<string, LocalInvoice>;
  paymentIntents: Record<string, LocalPaymentIntent>;
  /** Responses by idempotency key, as Stripe replays them for 24 hours. */
  idempotent: Record<string, { status: number; body: string }>;
  /** Receipts the stand-in "emailed" (Stripe emails them; here they are only recorded). */
  receipts: { to: string; invoice: string; amount: number; sentAt: string }[];
}

const empty = (): LocalStripeState => ({
  customers: {},
  paymentMethods: {},
  setupIntents: {},
  invoices: {},
  paymentIntents: {},
  idempotent: {},
  receipts: [],
});

/** Stripe-looking ids: a prefix and 24 random characters. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(18).toString('base64url').slice(0, 24)}`;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The state in memory, written to one JSON file after each change when a path is given. */
export class LocalStripeStore {
  readonly state: LocalStripeState;

  constructor(private readonly file: string | undefined) {
    this.state =
      file && existsSync(file)
        ? { ...empty(), ...(JSON.parse(readFileSync(file, 'utf8')) as LocalStripeState) }
        : empty();
  }

  save(): void {
    if (!this.file) return;
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, JSON.stringify(this.state));
    renameSync(temporary, this.file);
  }
}
