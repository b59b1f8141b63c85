/** Workspace spec: above this many original × modified lines, diff only the differing middle. */
export const LARGE_DIFF_LINE_PRODUCT = 2_000_000;

/** What to hand the diff editor for one file. */
export interface DiffInput {
  original: string;
  modified: string;
  /**
   * Lines left out before the shown text, the same on both sides (they are the common prefix):
   * line n of the shown text is line n + lineOffset of the file.
   */
  lineOffset: number;
  /** Whether the common prefix and suffix were cut off. */
  trimmed: boolean;
}

/**
 * How many leading (`head`) and trailing (`tail`) lines two texts share; the two never overlap,
 * so a repeated line is counted once.
 */
export function commonEnds(a: readonly string[], b: readonly string[]): { head: number; tail: number } {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  return { head, tail };
}

/**
 * Large files: Monaco's diff is quadratic-ish in lines, so when originalLines × modifiedLines is
 * above the limit only the middle between the common leading and trailing lines is diffed.
 */
export function diffInput(original: string, modified: string, limit = LARGE_DIFF_LINE_PRODUCT): DiffInput {
  const a = original.split('\n');
  const b = modified.split('\n');
  if (a.length * b.length <= limit) return { original, modified, lineOffset: 0, trimmed: false };
  const { head, tail } = commonEnds(a, b);
  return {
    original: a.slice(head, a.length - tail).join('\n'),
    modified: b.slice(head, b.length - tail).join('\n'),
    lineOffset: head,
    trimmed: true,
  };
}
