import type { SpiceItem } from '@tandem/shared';

/** One content part of a spice message, as the shared schema types it (fields unchecked). */
export type SpicePart = SpiceItem['content'][number];

/** Dollars never show more decimals than this: costs are stored in cents with 4 decimals. */
const MAX_DOLLAR_DECIMALS = 6;

/**
 * A cost stored in cents, shown in dollars. Amounts of a dollar or more keep two decimals
 * (153 → '$1.53'); smaller ones keep two significant digits, because a single model response
 * often costs a fraction of a cent and '$0.00' would hide it (0.42 → '$0.0042', 1.5 → '$0.015').
 */
export function formatCostCents(cents: number): string {
  if (!Number.isFinite(cents)) return '—';
  const dollars = Math.abs(cents) / 100;
  const sign = cents < 0 ? '-' : '';
  if (dollars === 0) return '$0.00';
  if (dollars >= 1) return `${sign}$${dollars.toFixed(2)}`;
  const significantDecimals = 1 - Math.floor(Math.log10(dollars));
  const decimals = Math.min(MAX_DOLLAR_DECIMALS, Math.max(2, significantDecimals));
  // Rounding can leave trailing zeros (0.0999 → '0.100'); keep at least cents' two decimals.
  const fixed = dollars.toFixed(decimals).replace(/(\.\d\d\d*?)0+$/, '$1');
  return `${sign}$${fixed}`;
}

const TOKEN_STATS = [
  ['input_tokens', 'input'],
  ['cached_tokens', 'cached'],
  ['output_tokens', 'output'],
  ['reasoning_tokens', 'reasoning'],
] as const;

/**
 * The response-stats line: token counts, time in seconds and cost in dollars. A stat the server
 * did not send is left out rather than shown as 0, so a missing value is never mistaken for a free one.
 */
export function formatResponseStats(stats: Record<string, number>): string {
  const parts: string[] = [];
  const tokens = TOKEN_STATS.filter(([key]) => stats[key] !== undefined).map(
    ([key, label]) => `${(stats[key] ?? 0).toLocaleString()} ${label}`,
  );
  if (tokens.length) parts.push(`Tokens: ${tokens.join(', ')}`);
  if (stats.time !== undefined) parts.push(`${stats.time.toFixed(1)} s`);
  if (stats.cost !== undefined) parts.push(formatCostCents(stats.cost));
  return parts.join(' · ');
}

/** A part's text as written; a value of another shape is shown as JSON rather than dropped. */
export function partText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value, null, 2);
}

/**
 * The image address of an image_url part: the server sends a string, but the OpenAI-style
 * `{ url }` object is accepted too. Null when there is no usable address.
 */
export function partImageUrl(value: unknown): string | null {
  if (typeof value === 'string') return value || null;
  if (typeof value === 'object' && value !== null && 'url' in value) {
    const url = (value as { url: unknown }).url;
    return typeof url === 'string' && url ? url : null;
  }
  return null;
}

export const roleLabel = (role: SpiceItem['role']) => (role === 'user' ? 'User' : 'Assistant');
