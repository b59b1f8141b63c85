/**
 * Stripe's documented test cards (https://docs.stripe.com/testing) that the stand-in knows, and
 * what each does. Any other number that passes the Luhn check behaves like 4242 4242 4242 4242.
 */
export interface CardOutcome {
  brand: string;
  /** Declined when a card is set up (SetupIntent confirmation), as Stripe does for these numbers. */
  setupDecline?: CardDecline;
  /** Set up fine, declined when charged (Stripe's 4000 0000 0000 0341). */
  chargeDecline?: CardDecline;
}

export interface CardDecline {
  code: 'card_declined' | 'incorrect_number' | 'expired_card';
  declineCode?: string;
  message: string;
}

const DECLINED: CardDecline = {
  code: 'card_declined',
  declineCode: 'generic_decline',
  message: 'Your card was declined.',
};
const INSUFFICIENT_FUNDS: CardDecline = {
  code: 'card_declined',
  declineCode: 'insufficient_funds',
  message: 'Your card has insufficient funds.',
};

const KNOWN: Record<string, CardOutcome> = {
  '4242424242424242': { brand: 'visa' },
  '4000056655665556': { brand: 'visa' },
  '5555555555554444': { brand: 'mastercard' },
  '378282246310005': { brand: 'amex' },
  '4000000000000002': { brand: 'visa', setupDecline: DECLINED },
  '4000000000009995': { brand: 'visa', setupDecline: INSUFFICIENT_FUNDS },
  '4000000000000341': { brand: 'visa', chargeDecline: DECLINED },
};

/** The outcome for a card number (spaces ignored), or a decline Stripe would give for a bad one. */
export function cardOutcome(
  rawNumber: string,
  expMonth: number,
  expYear: number,
  now = new Date(),
): CardOutcome {
  const number = rawNumber.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) {
    return {
      brand: 'unknown',
      setupDecline: { code: 'incorrect_number', message: 'Your card number is incorrect.' },
    };
  }
  const expired =
    !Number.isInteger(expMonth) ||
    expMonth < 1 ||
    expMonth > 12 ||
    expYear < now.getUTCFullYear() ||
    (expYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1);
  const known = KNOWN[number] ?? { brand: brandOf(number) };
  if (expired) {
    return { ...known, setupDecline: { code: 'expired_card', message: 'Your card has expired.' } };
  }
  return known;
}

function brandOf(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^5[1-5]/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
