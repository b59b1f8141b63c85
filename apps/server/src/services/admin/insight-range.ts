import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * The dashboard's range: the last `days` UTC calendar days, today included. Figures are grouped
 * by UTC day in SQL; the days without any are filled with zeros here.
 */
export interface InsightRange {
  days: number;
  /** Midnight UTC of the first day. */
  since: Date;
  /** The days in order, YYYY-MM-DD. */
  dates: string[];
}

export function insightRange(days: number, now = new Date()): InsightRange {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const dayMs = 86_400_000;
  const since = new Date(today - (days - 1) * dayMs);
  const dates = Array.from({ length: days }, (_, i) =>
    new Date(since.getTime() + i * dayMs).toISOString().slice(0, 10),
  );
  return { days, since, dates };
}

/** The UTC day of a timestamp column, as YYYY-MM-DD. */
export const utcDay = (column: SQLWrapper): SQL<string> =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/** `column >= since`, for plain and text-mapped (isoTimestamp) timestamp columns alike. */
export const inRange = (column: SQLWrapper, range: InsightRange): SQL =>
  sql`${column} >= ${range.since.toISOString()}::timestamptz`;

/** Figures per day (by `date`) as a lookup, each value a number whatever the driver returned. */
export function byDay<T extends { day: string }>(rows: T[]): Map<string, T> {
  return new Map(rows.map((row) => [row.day, row]));
}
