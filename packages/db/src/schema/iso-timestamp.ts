import { customType } from 'drizzle-orm/pg-core';
import { toIsoTimestamp } from '@tandem/shared';

/**
 * A `timestamp (6) with time zone` kept as text end to end, so paging by `before=` keeps its
 * microseconds (a Date holds milliseconds only). The drivers hand back Postgres' own text form
 * (`2026-11-13 20:04:09.825239+00`, in the session's time zone); callers always get ISO 8601 UTC
 * with six fractional digits (`2026-11-13T20:04:09.825239Z`), which the API can return as it is and
 * which sorts as text in time order.
 */
export const isoTimestamp = customType<{ data: string; driverData: string }>({
  // The same SQL type drizzle's timestamp(…, { withTimezone: true, precision: 6 }) declares, so the
  // migration snapshots see no change.
  dataType: () => 'timestamp (6) with time zone',
  fromDriver: (value) => toIsoTimestamp(String(value)),
});
