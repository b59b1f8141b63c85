import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { agents, spiceMessages, type Db } from '@tandem/db';
import type { AdminModelUsage } from '@tandem/shared';
import { inRange, insightRange, utcDay } from './insight-range.js';
import { modelUsageColumns, toModelUsage } from './model-usage-columns.js';

/**
 * One model's usage per day from the spice records (GET /api/admin/model-usage/{model_name}, the
 * spec's anthropic-usage generalised to every provider). A call counts for the model its agent is
 * set to; an unknown model simply has no calls.
 */
export async function getModelUsage(
  db: Db,
  model: string,
  days: number,
  now = new Date(),
): Promise<AdminModelUsage> {
  const range = insightRange(days, now);
  const day = utcDay(spiceMessages.timestamp);
  const rows = await db
    .select({ day, ...modelUsageColumns })
    .from(spiceMessages)
    .innerJoin(agents, eq(agents.id, spiceMessages.agentId))
    .where(
      and(
        eq(agents.model, model),
        isNotNull(spiceMessages.responseStats),
        inRange(spiceMessages.timestamp, range),
      ),
    )
    .groupBy(day)
    .orderBy(asc(day));
  const found = new Map(rows.map(({ day, ...usage }) => [day, toModelUsage(usage)]));
  const empty = toModelUsage({ calls: 0, input: 0, cached: 0, output: 0, reasoning: 0, cost: 0 });
  const daily = range.dates.map((date) => ({ date, ...(found.get(date) ?? empty) }));
  const totals = { ...empty };
  for (const usage of found.values()) {
    totals.calls += usage.calls;
    totals.input_tokens += usage.input_tokens;
    totals.cached_tokens += usage.cached_tokens;
    totals.output_tokens += usage.output_tokens;
    totals.reasoning_tokens += usage.reasoning_tokens;
    totals.cost_cents += usage.cost_cents;
  }
  totals.cost_cents = Math.round(totals.cost_cents * 10_000) / 10_000;
  return { model, days, totals, daily };
}
