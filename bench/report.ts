import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One line of the report: a measured figure beside its baseline, and whether it meets its goal. */
export interface Figure {
  name: string;
  baseline: number | null;
  tandem: number;
  /** tandem / baseline where the goal is a ratio. */
  ratio?: number;
  detail?: string;
  goal: string;
  ok: boolean;
}

const fmt = (value: number | null | undefined, digits = 0) =>
  value === null || value === undefined
    ? '—'
    : value.toLocaleString('en-US', { maximumFractionDigits: digits });

export function printTable(figures: Figure[]): void {
  const rows = [
    ['figure', 'baseline', 'tandem', 'ratio', 'goal', ''],
    ...figures.map((f) => [
      f.name,
      fmt(f.baseline, 1),
      fmt(f.tandem, 1) + (f.detail ? ` (${f.detail})` : ''),
      f.ratio === undefined ? '—' : fmt(f.ratio, 2),
      f.goal,
      f.ok ? 'ok' : 'MISSED',
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const [index, row] of rows.entries()) {
    console.log(
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
    if (index === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

/** Writes bench/results/<timestamp>.json and returns its path. */
export function writeResults(figures: Figure[], meta: Record<string, unknown>): string {
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const path = `${dir}${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  writeFileSync(path, `${JSON.stringify({ ...meta, figures }, null, 2)}\n`);
  return path;
}
