import { sql } from 'drizzle-orm';
import { spiceMessages } from '@tandem/db';
import type { AdminModelUsageTotals } from '@tandem/shared';

/**
 * Sums of the response stats that every model call stores on its first spice message (tokens, and
 * the provider's cost in cents). Stats are written by our runtime, but read defensively: a key
 * that is missing counts as zero.
 */
const stat = (key: string) =>
  sql<string>`coalesce(sum((${spiceMessages.responseStats} ->> ${sql.raw(`'${key}'`)})::numeric), 0)`;

export const modelUsageColumns = {
  calls: sql<string>`count(*)`,
  input: stat('input_tokens'),
  cached: stat('cached_tokens'),
  output: stat('output_tokens'),
  reasoning: stat('reasoning_tokens'),
  cost: stat('cost'),
};

export function toModelUsage(row: {
  calls: string | number;
  input: string | number;
  cached: string | number;
  output: string | number;
  reasoning: string | number;
  cost: string | number;
}): AdminModelUsageTotals {
  return {
    calls: Number(row.calls),
    input_tokens: Math.round(Number(row.input)),
    cached_tokens: Math.round(Number(row.cached)),
    output_tokens: Math.round(Number(row.output)),
    reasoning_tokens: Math.round(Number(row.reasoning)),
    // Cents with the 4 decimals the runtime keeps.
    cost_cents: Math.round(Number(row.cost) * 10_000) / 10_000,
  };
}
