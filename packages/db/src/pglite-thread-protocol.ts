/**
 * Messages between the server's event loop and the worker thread that runs PGlite
 * (`pglite-thread.ts` and `pglite-thread-worker.ts`). Every request carries an id its answer
 * repeats; notifications carry the id of the `listen` request that subscribed.
 */
export type ThreadRequest =
  | {
      id: number;
      op: 'query';
      sql: string;
      params: unknown[];
      rowMode: 'array' | 'object';
      /**
       * Type OIDs to hand back as Postgres' text instead of parsing (drizzle's parsers); absent
       * for the thread's default list (`ThreadStart.textTypes`), which nearly every query uses.
       */
      textTypes?: number[];
      /** The transaction the query belongs to (the id of its `begin`), else none. */
      tx?: number;
    }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; subscription: number }
  | { id: number; op: 'close' };

/** An error as plain data: structured clone keeps only an Error's message and stack. */
export interface ThreadError {
  message: string;
  name: string;
  /** Postgres' error fields (code, detail, constraint, …) when the database raised it. */
  fields: Record<string, string | number | boolean | null>;
}

export type ThreadMessage =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: ThreadError }
  | { subscription: number; payload: string }
  | { ready: true }
  | { failed: ThreadError };

export interface ThreadStart {
  dataDir: string;
  startParams: string[];
  /**
   * The text types nearly every query asks for (drizzle's): set once as the database's own
   * parsers, so such a query passes none (PGlite copies its ~300 parsers for every query that
   * brings its own, a third of a simple query's cost).
   */
  textTypes: number[];
}
