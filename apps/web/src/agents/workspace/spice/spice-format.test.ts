import { describe, expect, it } from 'vitest';
import { formatCostCents, formatResponseStats, partImageUrl, partText } from './spice-format';

describe('formatCostCents', () => {
  it('shows dollars with two decimals from a dollar up', () => {
    expect(formatCostCents(153)).toBe('$1.53');
    expect(formatCostCents(100)).toBe('$1.00');
    expect(formatCostCents(123456.789)).toBe('$1234.57');
  });

  it('keeps two significant digits below a dollar, never fewer than two decimals', () => {
    expect(formatCostCents(42)).toBe('$0.42');
    expect(formatCostCents(42.37)).toBe('$0.42');
    expect(formatCostCents(10)).toBe('$0.10');
    expect(formatCostCents(1.5)).toBe('$0.015');
    expect(formatCostCents(0.42)).toBe('$0.0042');
    expect(formatCostCents(0.4)).toBe('$0.004');
    expect(formatCostCents(9.99)).toBe('$0.10');
  });

  it('stops at the stored precision and handles zero and nonsense', () => {
    expect(formatCostCents(0.0001)).toBe('$0.000001');
    expect(formatCostCents(0.00001)).toBe('$0.00');
    expect(formatCostCents(0)).toBe('$0.00');
    expect(formatCostCents(-153)).toBe('-$1.53');
    expect(formatCostCents(Number.NaN)).toBe('—');
  });
});

describe('formatResponseStats', () => {
  it('lists tokens, time and cost in order', () => {
    expect(
      formatResponseStats({
        cost: 153,
        time: 3.24,
        reasoning_tokens: 7,
        output_tokens: 56,
        cached_tokens: 10,
        input_tokens: 120,
      }),
    ).toBe('Tokens: 120 input, 10 cached, 56 output, 7 reasoning · 3.2 s · $1.53');
  });

  it('leaves out what the server did not send', () => {
    expect(formatResponseStats({ output_tokens: 5 })).toBe('Tokens: 5 output');
    expect(formatResponseStats({ cost: 0.42 })).toBe('$0.0042');
    expect(formatResponseStats({})).toBe('');
  });
});

describe('part values', () => {
  it('reads text as written and other shapes as JSON', () => {
    expect(partText('hi')).toBe('hi');
    expect(partText(undefined)).toBe('');
    expect(partText({ a: 1 })).toBe('{\n  "a": 1\n}');
  });

  it('reads an image address from a string or a { url } object', () => {
    expect(partImageUrl('/user_asset/event/a/1')).toBe('/user_asset/event/a/1');
    expect(partImageUrl({ url: 'data:image/png;base64,AA' })).toBe('data:image/png;base64,AA');
    expect(partImageUrl('')).toBeNull();
    expect(partImageUrl({ url: 3 })).toBeNull();
    expect(partImageUrl(null)).toBeNull();
  });
});
