import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MODEL_KEY,
  DEFAULT_REVIEW_MODEL_KEY,
  localModelOption,
  MODEL_CATALOG,
  summarizationLimitError,
} from './catalog.js';
import { chargeUnits, MODEL_PRICES, providerCostCents } from './pricing.js';

const byKey = (key: string) => MODEL_CATALOG.find((m) => m.key === key)!;

describe('model catalog', () => {
  it('has the spec defaults, maxima and flags', () => {
    expect(byKey(DEFAULT_MODEL_KEY).label).toBe('Sonnet 4.5');
    expect(byKey(DEFAULT_REVIEW_MODEL_KEY)).toMatchObject({
      label: 'GPT-5 Reasoning',
      review_recommended: true,
    });
    expect(
      MODEL_CATALOG.map((m) => [m.label, m.default_summarization_limit, m.max_summarization_limit]),
    ).toEqual([
      ['Sonnet 4.5', 150000, 960000],
      ['Sonnet 4', 150000, 960000],
      ['Opus 4.1', 150000, 160000],
      ['GPT-5 Fast', 350000, 350000],
      ['GPT-5 Reasoning', 335000, 335000],
      ['Gemini 2.5 Pro', 150000, 1008448],
      ['GPT-5 high', 325000, 325000],
      ['o3', 135000, 135000],
    ]);
    expect(MODEL_CATALOG.filter((m) => m.admin_only).map((m) => m.label)).toEqual([
      'Sonnet 4',
      'GPT-5 high',
      'o3',
    ]);
    expect(MODEL_CATALOG.filter((m) => m.core_recommended).map((m) => m.label)).toEqual([
      'Sonnet 4.5',
      'Sonnet 4',
      'GPT-5 Fast',
    ]);
    expect(byKey('gemini-2-5-pro').thinking_budget).toBe(128);
    for (const m of MODEL_CATALOG) expect(MODEL_PRICES[m.model], m.model).toBeDefined();
  });

  it('offers OpenAI-compatible models as local/{name}', () => {
    expect(localModelOption('qwen2.5-coder')).toMatchObject({
      key: 'local/qwen2.5-coder',
      label: 'qwen2.5-coder (local)',
    });
  });

  it.each([
    ['abc', 'Summarization limit must be a valid number.'],
    ['1e6', 'Summarization limit must be a valid number.'],
    ['99999', 'Minimum summarization limit is 100000'],
    ['960001', 'Maximum summarization limit for Sonnet 4.5 is 960000'],
    ['200000', null],
  ])('summarization limit %s → %s', (value, message) => {
    expect(summarizationLimitError(value, byKey('sonnet-4-5'))).toBe(message);
  });
});

describe('pricing', () => {
  const sonnet = MODEL_PRICES['claude-sonnet-4-5']!;
  it('prices a call at cost plus 19.5 %, in hundredths of a cent, rounded up', () => {
    const usage = { inputTokens: 1_000_000, cachedTokens: 0, outputTokens: 0, reasoningTokens: 0 };
    expect(providerCostCents(sonnet, usage)).toBe(300); // $3
    expect(chargeUnits(sonnet, usage)).toBe(35_850); // 300 ¢ × 1.195 = 358.5 ¢
    expect(
      chargeUnits(sonnet, { inputTokens: 1, cachedTokens: 0, outputTokens: 0, reasoningTokens: 0 }),
    ).toBe(1);
    expect(
      chargeUnits(sonnet, { inputTokens: 0, cachedTokens: 0, outputTokens: 0, reasoningTokens: 0 }),
    ).toBe(0);
  });

  it('bills cached input at its own rate and reasoning as output', () => {
    const withReasoning = {
      inputTokens: 0,
      cachedTokens: 1_000_000,
      outputTokens: 500_000,
      reasoningTokens: 500_000,
    };
    expect(providerCostCents(sonnet, withReasoning)).toBeCloseTo(30 + 1500, 6);
  });
});
