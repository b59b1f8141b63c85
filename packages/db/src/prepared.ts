import type { Db } from './client.js';

/** Per database (or transaction) object: its statements built so far, by name. */
const built = new WeakMap<object, Map<string, unknown>>();

/**
 * A statement built once per database and run many times with `sql.placeholder` values, for the
 * queries an agent's every step repeats. Building a query is drizzle's costliest part: every call
 * walks the query's parts, checking each part's class up its prototype chain (about a fifth of the
 * server's main thread with a hundred agents at once, 50-800 µs per statement; issue 15). A
 * prepared statement keeps the built text and fills in the placeholders; on Postgres it is also a
 * named prepared statement of each connection, parsed and planned once.
 *
 * `name` must stand for one statement text: Postgres refuses a name prepared with another text.
 * A transaction is another object, so its statements are built for it alone.
 */
export function prepared<Query>(db: Db, name: string, build: (db: Db, name: string) => Query): Query {
  let statements = built.get(db);
  if (!statements) {
    statements = new Map();
    built.set(db, statements);
  }
  let query = statements.get(name) as Query | undefined;
  if (query === undefined) {
    query = build(db, `tandem_${name}`);
    statements.set(name, query);
  }
  return query;
}
