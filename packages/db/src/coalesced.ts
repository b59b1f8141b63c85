/**
 * One statement for the callers that arrive together, instead of one each.
 *
 * A hundred agents started at once each run the same single-row statements (open the agent, store
 * its first message) within a few milliseconds of each other. On the embedded database they queue
 * on one thread, and each costs its parse, plan, execution and commit: 100 single-row updates took
 * some 35 ms there against 2 ms as one `= any($1)` statement (issue 15). Postgres pays a round trip
 * and a commit per statement too.
 *
 * A coalesced statement runs at once when none of its kind is under way. While one is, callers
 * queue, and the next statement takes every queued key at once (up to `maxKeys`). A lone caller
 * so waits no longer than before; under a burst the batch grows with the queue.
 *
 * A statement takes each key once: a key called again while it is queued waits for the statement
 * after, so that every call is answered by a statement of its own, which matters for updates (two
 * runs of one agent must not both see it opened by one update). Reads may share instead
 * (`shareQueued`). When a statement over several keys fails, each key runs again alone, so one
 * caller's bad row fails that caller only (the failed statement changed nothing: a statement is
 * atomic). Not for a transaction: there a failed statement aborts the whole transaction, and its
 * callers run one after another anyway.
 */

interface Call<K, V> {
  key: K;
  resolve: (value: V | undefined) => void;
  reject: (error: unknown) => void;
}

export interface CoalescedOptions {
  /** The most keys one statement takes. */
  maxKeys?: number;
  /**
   * For reads: callers of a key queued together share one answer (all of them called before the
   * statement started, so it is as fresh as a statement of their own).
   */
  shareQueued?: boolean;
}

/**
 * Wraps `run`, which runs one statement for many distinct keys and answers each key's result (a key
 * left out of the map is answered `undefined`), as a function of one key.
 */
export function coalesced<K, V>(
  run: (keys: K[]) => Promise<Map<K, V>>,
  options: CoalescedOptions = {},
): (key: K) => Promise<V | undefined> {
  const maxKeys = options.maxKeys ?? 200;
  const share = options.shareQueued ?? false;
  let queue: Call<K, V>[] = [];
  let running = false;

  /**
   * The next statement's calls: the first call of each key, in arrival order, up to maxKeys keys,
   * and with shareQueued the key's later calls too.
   */
  function takeBatch(): Call<K, V>[] {
    const batch: Call<K, V>[] = [];
    const keys = new Set<K>();
    const rest: Call<K, V>[] = [];
    for (const call of queue) {
      if (keys.has(call.key) ? share : keys.size < maxKeys) {
        keys.add(call.key);
        batch.push(call);
      } else rest.push(call);
    }
    queue = rest;
    return batch;
  }

  /** One key's statement, answering every call of it in the batch. */
  async function runAlone(key: K, calls: Call<K, V>[]): Promise<void> {
    try {
      const answer = (await run([key])).get(key);
      for (const call of calls) call.resolve(answer);
    } catch (error) {
      for (const call of calls) call.reject(error);
    }
  }

  async function runBatch(batch: Call<K, V>[]): Promise<void> {
    const keys = [...new Set(batch.map((call) => call.key))];
    const callsOf = (key: K) => batch.filter((call) => call.key === key);
    if (keys.length === 1) return runAlone(keys[0]!, batch);
    let answers: Map<K, V>;
    try {
      answers = await run(keys);
    } catch {
      // Which key failed is unknown: each runs alone, so the others still get their answers.
      await Promise.all(keys.map((key) => runAlone(key, callsOf(key))));
      return;
    }
    for (const call of batch) call.resolve(answers.get(call.key));
  }

  async function drain(): Promise<void> {
    running = true;
    try {
      while (queue.length) await runBatch(takeBatch());
    } finally {
      running = false;
    }
  }

  return (key: K) =>
    new Promise<V | undefined>((resolve, reject) => {
      queue.push({ key, resolve, reject });
      // Started at once when idle: its statement leaves now, and callers meanwhile queue.
      if (!running) void drain();
    });
}
