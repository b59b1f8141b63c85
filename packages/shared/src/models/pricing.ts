import { LEDGER_UNITS_PER_CREDIT, PRICE_MARGIN } from '../constants.js';

/** US dollars per million tokens. Reasoning tokens are billed as output. */
export interface ModelPrice {
  input: number;
  cachedInput: number;
  output: number;
}

export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-sonnet-4-5': { input: 3, cachedInput: 0.3, output: 15 },
  'claude-sonnet-4-0': { input: 3, cachedInput: 0.3, output: 15 },
  'claude-opus-4-1': { input: 15, cachedInput: 1.5, output: 75 },
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gemini-2.5-pro': { input: 1.25, cachedInput: 0.31, output: 10 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
};

export interface TokenUsage {
  /** Uncached input tokens. */
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  reasoningTokens: number;
}

/** The provider's cost of one call in cents (for response_stats.cost). */
export function providerCostCents(price: ModelPrice, usage: TokenUsage): number {
  const dollars =
    (usage.inputTokens * price.input +
      usage.cachedTokens * price.cachedInput +
      (usage.outputTokens + usage.reasoningTokens) * price.output) /
    1_000_000;
  return dollars * 100;
}

/**
 * What a call costs the installation, in ledger units (hundredths of a cent): the provider's cost
 * plus the 19.5 % margin, rounded up so no call is ever free.
 */
export function chargeUnits(price: ModelPrice, usage: TokenUsage): number {
  const cents = providerCostCents(price, usage) * (1 + PRICE_MARGIN);
  // Round away float noise before rounding up (e.g. 119.50000000000001 → 120, not 121).
  return Math.ceil(Math.round(cents * LEDGER_UNITS_PER_CREDIT * 1e6) / 1e6);
}
