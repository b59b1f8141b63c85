/**
 * Item timestamps with microseconds, strictly increasing within this process: items written in one
 * burst must keep their order, and `before=` paging compares them exactly. Runs of one agent are
 * serial (one process at a time), so per-process monotonicity is enough.
 */
let lastMicros = 0n;

export function nextTimestamp(now: Date = new Date()): string {
  let micros = BigInt(now.getTime()) * 1000n;
  if (micros <= lastMicros) micros = lastMicros + 1n;
  lastMicros = micros;
  const millis = Number(micros / 1000n);
  const extra = String(micros % 1000n).padStart(3, '0');
  return new Date(millis).toISOString().replace('Z', `${extra}Z`);
}
