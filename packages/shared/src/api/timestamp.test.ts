import { describe, expect, it } from 'vitest';
import { apiTimestampSchema, timestampInputSchema, toIsoTimestamp } from './timestamp.js';

describe('toIsoTimestamp', () => {
  it('turns Postgres text into ISO 8601 UTC with microseconds', () => {
    expect(toIsoTimestamp('2026-11-13 20:04:09.825239+00')).toBe('2026-11-13T20:04:09.825239Z');
  });

  it('pads dropped trailing zeros to six digits', () => {
    expect(toIsoTimestamp('2026-11-13 20:04:09.8+00')).toBe('2026-11-13T20:04:09.800000Z');
    expect(toIsoTimestamp('2026-11-13 20:04:09+00')).toBe('2026-11-13T20:04:09.000000Z');
  });

  it('moves other session time zones to UTC', () => {
    expect(toIsoTimestamp('2026-11-13 21:04:09.825239+01')).toBe('2026-11-13T20:04:09.825239Z');
    expect(toIsoTimestamp('2026-01-01 01:34:09.000001+05:30')).toBe('2025-12-31T20:04:09.000001Z');
    expect(toIsoTimestamp('2026-11-13 16:04:09.5-04')).toBe('2026-11-13T20:04:09.500000Z');
  });

  it('keeps ISO input and leaves what it cannot read alone', () => {
    expect(toIsoTimestamp('2026-11-13T20:04:09.825239Z')).toBe('2026-11-13T20:04:09.825239Z');
    expect(toIsoTimestamp('infinity')).toBe('infinity');
  });

  it('sorts as text in time order', () => {
    const values = ['2026-11-13 20:04:09.9+00', '2026-11-13 20:04:09.10001+00', '2026-11-13 20:04:10+00'];
    const iso = values.map(toIsoTimestamp);
    expect([...iso].sort()).toEqual(iso.sort((a, b) => Date.parse(a) - Date.parse(b)));
  });

  it('produces what the response schema and before= accept', () => {
    const iso = toIsoTimestamp('2026-11-13 20:04:09.825239+00');
    expect(apiTimestampSchema.safeParse(iso).success).toBe(true);
    expect(timestampInputSchema.safeParse(iso).success).toBe(true);
    expect(apiTimestampSchema.safeParse('2026-11-13 20:04:09.825239+00').success).toBe(false);
    expect(apiTimestampSchema.safeParse(new Date().toISOString()).success).toBe(true);
  });
});
