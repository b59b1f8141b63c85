import type { LanguageModelUsage } from 'ai';
import { MODEL_PRICES, type ModelOption, type ModelPrice, type TokenUsage } from '@tandem/shared';
import { DEMO_MODEL_KEY, SCRIPTED_MODEL_KEY } from './config.js';

const count = (n: number | undefined): number => (n !== undefined && Number.isFinite(n) ? n : 0);

/**
 * AI SDK usage → Tandem's billing shape.
 *
 * `chargeUnits` bills `outputTokens + reasoningTokens` at the output price, while the AI SDK's
 * `outputTokens` already includes reasoning: so reasoning is subtracted here to avoid billing it
 * twice. Cache writes (Anthropic) have no field of their own and stay in the uncached input.
 */
export function toTokenUsage(usage: LanguageModelUsage): TokenUsage {
  // The detail objects are required by the v6 type, but usage assembled by hand (or by older
  // code paths) may lack them, hence the optional chaining and the deprecated fallbacks.
  const inputDetails = usage.inputTokenDetails as LanguageModelUsage['inputTokenDetails'] | undefined;
  const outputDetails = usage.outputTokenDetails as LanguageModelUsage['outputTokenDetails'] | undefined;

  const cachedTokens = count(inputDetails?.cacheReadTokens ?? usage.cachedInputTokens);
  const totalInput =
    usage.inputTokens ??
    (inputDetails?.noCacheTokens !== undefined
      ? inputDetails.noCacheTokens + count(inputDetails.cacheWriteTokens) + cachedTokens
      : 0);

  const reasoningTokens = count(outputDetails?.reasoningTokens ?? usage.reasoningTokens);
  const outputWithoutReasoning =
    usage.outputTokens !== undefined
      ? usage.outputTokens - reasoningTokens
      : count(outputDetails?.textTokens);

  return {
    inputTokens: Math.max(0, totalInput - cachedTokens),
    cachedTokens,
    outputTokens: Math.max(0, outputWithoutReasoning),
    reasoningTokens,
  };
}

/**
 * A small non-zero price for the scripted model, so tests exercise the real charging path
 * (ledger entries, credit exhaustion) with predictable numbers.
 */
export const SCRIPTED_MODEL_PRICE: ModelPrice = { input: 1, cachedInput: 0.1, output: 2 };
/** Self-hosted (`local/…`) models run on the operator's hardware: Tandem charges nothing for them. */
export const LOCAL_MODEL_PRICE: ModelPrice = { input: 0, cachedInput: 0, output: 0 };

export function priceFor(option: ModelOption): ModelPrice {
  if (option.key === SCRIPTED_MODEL_KEY) return SCRIPTED_MODEL_PRICE;
  // The demo model runs no model at all: free.
  if (option.key === DEMO_MODEL_KEY) return LOCAL_MODEL_PRICE;
  if (option.provider === 'openai-compatible') return LOCAL_MODEL_PRICE;
  const price = MODEL_PRICES[option.model];
  // A catalog model without a price is a catalog bug; failing loudly beats running it for free.
  if (!price) throw new Error(`No price for model "${option.model}" (${option.key})`);
  return price;
}
