/** Compact line diffs for edit items: a terminal shows what changed, not whole files. */

export interface DiffLine {
  kind: ' ' | '-' | '+';
  text: string;
}

/** Above this many line pairs the middle is shown as removed-then-added (workspace §9 uses 2 000 000 for full files; a terminal needs far less). */
const MAX_LCS_CELLS = 1_000_000;

const splitLines = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

/** The edit script between two texts: common prefix and suffix trimmed, the rest by LCS. */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const lines: DiffLine[] = a.slice(0, start).map((text) => ({ kind: ' ', text }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length * midB.length > MAX_LCS_CELLS) {
    lines.push(...midA.map((text) => ({ kind: '-' as const, text })));
    lines.push(...midB.map((text) => ({ kind: '+' as const, text })));
  } else {
    lines.push(...lcsScript(midA, midB));
  }
  lines.push(...a.slice(endA).map((text) => ({ kind: ' ' as const, text })));
  return lines;
}

function lcsScript(a: string[], b: string[]): DiffLine[] {
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i * width + j] =
        a[i] === b[j]
          ? table[(i + 1) * width + j + 1]! + 1
          : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: ' ', text: a[i]! });
      i++;
      j++;
    } else if (table[(i + 1) * width + j]! >= table[i * width + j + 1]!)
      out.push({ kind: '-', text: a[i++]! });
    else out.push({ kind: '+', text: b[j++]! });
  }
  while (i < a.length) out.push({ kind: '-', text: a[i++]! });
  while (j < b.length) out.push({ kind: '+', text: b[j++]! });
  return out;
}

/**
 * Changed lines with `context` unchanged lines around them, runs of unchanged lines in between
 * shown as one `@@ line N @@` marker, at most `maxLines` lines (then a count of what was left out).
 */
export function compactDiff(before: string, after: string, context = 2, maxLines = 40): string[] {
  const lines = diffLines(before, after);
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((line, index) => {
    if (line.kind === ' ') return;
    for (let k = Math.max(0, index - context); k <= Math.min(lines.length - 1, index + context); k++)
      keep[k] = true;
  });
  const out: string[] = [];
  let oldLine = 0;
  let gap = true;
  lines.forEach((line, index) => {
    if (line.kind !== '+') oldLine++;
    if (!keep[index]) {
      gap = true;
      return;
    }
    if (gap) out.push(`@@ line ${line.kind === '+' ? oldLine + 1 : oldLine} @@`);
    gap = false;
    out.push(`${line.kind}${line.text}`);
  });
  if (out.length <= maxLines) return out;
  return [...out.slice(0, maxLines), `… ${out.length - maxLines} more diff lines`];
}
