import { describe, expect, it } from 'vitest';
import {
  commitsInRange,
  committedRange,
  defaultRange,
  rangeLabel,
  rangeStops,
  rangeToSlider,
  sliderToRange,
} from './range';

const commits = [
  { sha: 'aaaaaaa1', title: 'First' },
  { sha: 'bbbbbbb2', title: 'Second' },
  { sha: 'ccccccc3', title: 'Third' },
];

describe('commit range', () => {
  const stops = rangeStops('base0000', commits, true);

  it('lists the base, the commits oldest first, then live', () => {
    expect(stops.map((s) => s.id)).toEqual(['base0000', 'aaaaaaa1', 'bbbbbbb2', 'ccccccc3', 'live']);
    expect(stops.map((s) => s.label)).toEqual([
      'Base (base000)',
      'First',
      'Second',
      'Third',
      'Uncommitted changes',
    ]);
    expect(rangeStops(null, commits, false)).toHaveLength(3);
  });

  it('defaults to the whole branch, base to last commit', () => {
    expect(defaultRange(stops)).toEqual({ from: 'base0000', to: 'ccccccc3' });
    expect(rangeToSlider(stops, null)).toEqual([0, 3]);
    expect(rangeLabel(stops, { from: 'base0000', to: 'ccccccc3' })).toBe('All commits (3)');
  });

  it('defaults to the live changes when there is no commit yet', () => {
    const early = rangeStops('base0000', [], true);
    expect(defaultRange(early)).toEqual({ from: 'base0000', to: 'live' });
    expect(defaultRange(rangeStops('base0000', [], false))).toBeNull();
    expect(rangeToSlider(rangeStops('base0000', [], false), null)).toBeNull();
  });

  it('maps slider values to shas, in either order, including live', () => {
    expect(sliderToRange(stops, [1, 2])).toEqual({ from: 'aaaaaaa1', to: 'bbbbbbb2' });
    expect(sliderToRange(stops, [4, 2])).toEqual({ from: 'bbbbbbb2', to: 'live' });
    expect(sliderToRange(stops, [2, 2])).toBeNull();
    expect(sliderToRange(stops, [0, 9])).toBeNull();
    expect(rangeLabel(stops, { from: 'aaaaaaa1', to: 'live' })).toBe('aaaaaaa…uncommitted');
    expect(rangeLabel(stops, { from: 'aaaaaaa1', to: 'ccccccc3' })).toBe('aaaaaaa…ccccccc');
  });

  it('maps a chosen range back to slider values, falling back to the default when it is gone', () => {
    expect(rangeToSlider(stops, { from: 'aaaaaaa1', to: 'live' })).toEqual([1, 4]);
    expect(rangeToSlider(stops, { from: 'gone', to: 'live' })).toEqual([0, 3]);
  });

  it('asks the server for the committed part of a live range', () => {
    expect(committedRange(stops, { from: 'base0000', to: 'live' })).toEqual({
      from: 'base0000',
      to: 'ccccccc3',
    });
    expect(committedRange(stops, { from: 'ccccccc3', to: 'live' })).toBeNull();
    expect(committedRange(stops, { from: 'aaaaaaa1', to: 'bbbbbbb2' })).toEqual({
      from: 'aaaaaaa1',
      to: 'bbbbbbb2',
    });
  });
});

describe('commitsInRange', () => {
  it('lists the commits after from, up to to', () => {
    const titles = (from: string, to: string) => commitsInRange(commits, { from, to }).map((c) => c.title);
    expect(titles('base0000', 'ccccccc3')).toEqual(['First', 'Second', 'Third']);
    expect(titles('aaaaaaa1', 'bbbbbbb2')).toEqual(['Second']);
    expect(titles('bbbbbbb2', 'live')).toEqual(['Third']);
    expect(titles('ccccccc3', 'live')).toEqual([]);
  });
});
