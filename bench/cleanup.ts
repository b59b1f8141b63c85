/**
 * What the bench must undo even when it is interrupted (Ctrl-C, `timeout`): its child processes
 * and throwaway databases. Normal and failing runs undo them in their own `finally`; on SIGINT or
 * SIGTERM those never run, so the pending undos run here, newest first, before the bench exits.
 */
const pending = new Set<() => Promise<void>>();
let listening = false;

async function interrupted(signal: NodeJS.Signals): Promise<void> {
  console.error(`${signal}: stopping the bench's processes and dropping its databases…`);
  for (const undo of [...pending].reverse()) await undo().catch(() => undefined);
  process.exit(130);
}

/** Registers `undo` for an interruption; returns `undo` wrapped to unregister itself when it runs. */
export function undoOnInterrupt(undo: () => Promise<void>): () => Promise<void> {
  if (!listening) {
    listening = true;
    process.once('SIGINT', (signal) => void interrupted(signal));
    process.once('SIGTERM', (signal) => void interrupted(signal));
  }
  const once = () => {
    pending.delete(once);
    return undo();
  };
  pending.add(once);
  return once;
}
