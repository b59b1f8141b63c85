import type { BranchCommit } from '@tandem/shared';
import { LIVE } from './live-changes';

/** One stop of the commit-range slider: the merge base, a commit, or the uncommitted changes. */
export interface RangeStop {
  /** A sha, or 'live'. */
  id: string;
  label: string;
}

/** A chosen range: `from` is a sha; `to` is a sha or 'live'. */
export interface CommitRange {
  from: string;
  to: string;
}

const short = (sha: string) => sha.slice(0, 7);

/** Stops oldest first: the merge base, each commit, then 'live' when there are live changes. */
export function rangeStops(baseSha: string | null, commits: BranchCommit[], hasLive: boolean): RangeStop[] {
  const stops: RangeStop[] = [];
  if (baseSha) stops.push({ id: baseSha, label: `Base (${short(baseSha)})` });
  for (const commit of commits) stops.push({ id: commit.sha, label: commit.title || short(commit.sha) });
  if (hasLive) stops.push({ id: LIVE, label: 'Uncommitted changes' });
  return stops;
}

/**
 * The whole branch: from the merge base to the last commit; to the live changes only when there
 * is no commit to end at. Null when there is no range at all (fewer than two stops).
 */
export function defaultRange(stops: RangeStop[]): CommitRange | null {
  const first = stops[0];
  if (!first || stops.length < 2) return null;
  const committed = stops.filter((s) => s.id !== LIVE);
  const last = committed.length >= 2 ? committed[committed.length - 1] : stops[stops.length - 1];
  return last ? { from: first.id, to: last.id } : null;
}

/** Slider positions of a range; a range whose ends are gone (a force-push) reads as the default. */
export function rangeToSlider(stops: RangeStop[], range: CommitRange | null): [number, number] | null {
  const chosen = range ?? defaultRange(stops);
  if (!chosen) return null;
  const from = stops.findIndex((s) => s.id === chosen.from);
  const to = stops.findIndex((s) => s.id === chosen.to);
  if (from < 0 || to < 0 || from >= to) return range ? rangeToSlider(stops, null) : null;
  return [from, to];
}

/** The range of two slider positions, in either order; null when they meet or fall outside. */
export function sliderToRange(stops: RangeStop[], values: readonly number[]): CommitRange | null {
  const [a = 0, b = 0] = values;
  const from = stops[Math.min(a, b)];
  const to = stops[Math.max(a, b)];
  // 'live' is only ever an end: nothing comes after the uncommitted changes.
  if (!from || !to || a === b || from.id === LIVE) return null;
  return { from: from.id, to: to.id };
}

/** The range button's text: "All commits (3)" for the default, else "abc1234…def5678". */
export function rangeLabel(stops: RangeStop[], range: CommitRange): string {
  const whole = defaultRange(stops);
  const commits = stops.filter((s) => s.id !== LIVE).length - 1;
  if (whole && whole.from === range.from && whole.to === range.to) {
    return range.to === LIVE ? 'Uncommitted changes' : `All commits (${commits})`;
  }
  const to = range.to === LIVE ? 'uncommitted' : short(range.to);
  return `${short(range.from)}…${to}`;
}

/**
 * The committed part a range asks the server for: to 'live' means up to the last commit, with
 * the live changes laid over it. Null when there is nothing committed to diff.
 */
export function committedRange(stops: RangeStop[], range: CommitRange): CommitRange | null {
  if (range.to !== LIVE) return range;
  const committed = stops.filter((s) => s.id !== LIVE);
  const last = committed[committed.length - 1];
  return last && last.id !== range.from ? { from: range.from, to: last.id } : null;
}

/** The commits a range covers, oldest first: after `from`, up to `to` (the last commit for 'live'). */
export function commitsInRange(commits: BranchCommit[], range: CommitRange): BranchCommit[] {
  const start = commits.findIndex((c) => c.sha === range.from) + 1;
  const end = range.to === LIVE ? commits.length : commits.findIndex((c) => c.sha === range.to) + 1;
  return end > start ? commits.slice(start, end) : [];
}
