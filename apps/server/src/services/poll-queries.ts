import type { Db } from '@tandem/db';

/**
 * A query built once per database and reused: the polled endpoints run the same statement
 * thousands of times a second, and building it (drizzle) and, on Postgres, parsing and planning it
 * each time cost more than running it. `build` gets the database and returns drizzle's prepared
 * query; `name` is the Postgres statement name, unique per query.
 */
export function preparedPerDatabase<T>(build: (db: Db, name: string) => T, name: string): (db: Db) => T {
  const byDatabase = new WeakMap<Db, T>();
  return (db) => {
    let prepared = byDatabase.get(db);
    if (!prepared) {
      prepared = build(db, name);
      byDatabase.set(db, prepared);
    }
    return prepared;
  };
}
