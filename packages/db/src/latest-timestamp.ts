import { sql, type SQL } from 'drizzle-orm';
import { agents } from './schema/agents.js';

/**
 * An agent's latest_timestamp after a write at `at`: `at`, or one millisecond past the value it
 * holds when that is later. Open workspaces read the newest page again only once the polled value
 * passes the one their last read carried, so every write must move it forward. Writers run
 * concurrently (the run, its shells, CI events) and their timestamps need not commit in order: a
 * write that set an earlier time hid its item from open pages until the next write, and for good
 * when none followed. Two items within one millisecond did the same (the column keeps the
 * milliseconds of a Date).
 */
export function advancedLatest(at: SQL | Date): SQL {
  const time = at instanceof Date ? sql`${at.toISOString()}::timestamptz` : at;
  return sql`greatest(${time}, ${agents.latestTimestamp} + interval '1 millisecond')`;
}
