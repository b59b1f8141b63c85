import type { LanguageModelUsage } from 'ai';
import { chargeUnits, localModelOption, MODEL_CATALOG, MODEL_PRICES } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { scriptedModelOption } from './resolve.js';
import { LOCAL_MODEL_PRICE, priceFor, SCRIPTED_MODEL_PRICE, toTokenUsage } from './usage.js';

const usage = (overrides: Partial<LanguageModelUsage>): LanguageModelUsage => ({
  inputTokens: undefined,
  inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
  outputTokens: undefined,
  outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
  totalTokens: undefined,
  ...overrides,
});

describe('toTokenUsage', () => {
  it('separates cached input and reasoning output', () => {
    expect(
      toTokenUsage(
        usage({
          inputTokens: 12_000,
          inputTokenDetails: { noCacheTokens: 2_000, cacheReadTokens: 10_000, cacheWriteTokens: undefined },
          outputTokens: 900,
          outputTokenDetails: { textTokens: 300, reasoningTokens: 600 },
          totalTokens: 12_900,
        }),
      ),
    ).toEqual({ inputTokens: 2_000, cachedTokens: 10_000, outputTokens: 300, reasoningTokens: 600 });
  });

  it('bills Anthropic cache writes as uncached input', () => {
    // Anthropic: total = input_tokens + cache_creation + cache_read, reasoning not reported apart.
    expect(
      toTokenUsage(
        usage({
          inputTokens: 1_500,
          inputTokenDetails: { noCacheTokens: 100, cacheReadTokens: 1_000, cacheWriteTokens: 400 },
          outputTokens: 50,
          outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
        }),
      ),
    ).toEqual({ inputTokens: 500, cachedTokens: 1_000, outputTokens: 50, reasoningTokens: 0 });
  });

  it('treats missing numbers as zero', () => {
    expect(toTokenUsage(usage({}))).toEqual({
      inputTokens: 0,
      cachedTokens: 0,
      outputTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('falls back to the deprecated flat fields when details are absent', () => {
    const flat = {
      inputTokens: 800,
      outputTokens: 70,
      totalTokens: 870,
      cachedInputTokens: 300,
      reasoningTokens: 20,
    };
    expect(toTokenUsage(flat as unknown as LanguageModelUsage)).toEqual({
      inputTokens: 500,
      cachedTokens: 300,
      outputTokens: 50,
      reasoningTokens: 20,
    });
  });

  it('derives the input total from its details when the total is missing', () => {
    expect(
      toTokenUsage(
        usage({
          inputTokenDetails: { noCacheTokens: 100, cacheReadTokens: 50, cacheWriteTokens: 25 },
          outputTokens: 5,
        }),
      ),
    ).toEqual({ inputTokens: 125, cachedTokens: 50, outputTokens: 5, reasoningTokens: 0 });
  });
});

describe('priceFor', () => {
  it('prices every catalog model from MODEL_PRICES', () => {
    for (const option of MODEL_CATALOG) expect(priceFor(option)).toBe(MODEL_PRICES[option.model]);
  });

  it('gives the scripted model a small test price and local models none', () => {
    expect(priceFor(scriptedModelOption())).toEqual({ input: 1, cachedInput: 0.1, output: 2 });
    expect(priceFor(scriptedModelOption())).toBe(SCRIPTED_MODEL_PRICE);
    expect(priceFor(localModelOption('qwen'))).toBe(LOCAL_MODEL_PRICE);
    const tokens = { inputTokens: 1000, cachedTokens: 0, outputTokens: 100, reasoningTokens: 0 };
    expect(chargeUnits(priceFor(localModelOption('qwen')), tokens)).toBe(0);
    expect(chargeUnits(priceFor(scriptedModelOption()), tokens)).toBeGreaterThan(0);
  });

  it('refuses a catalog model without a price', () => {
    const [first] = MODEL_CATALOG;
    expect(() => priceFor({ ...first!, model: 'unpriced-model' })).toThrow(
      'No price for model "unpriced-model"',
    );
  });
});
