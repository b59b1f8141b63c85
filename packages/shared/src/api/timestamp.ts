import { z } from 'zod';

/**
 * Every timestamp the API returns: ISO 8601 in UTC (`…Z`), any number of fractional digits.
 * Conversation and spice items carry microseconds (`2026-11-13T20:04:09.825239Z`) so that sending
 * one back as `before=` pages exactly; everything else comes from `Date#toISOString()`.
 */
export const apiTimestampSchema = z.iso.datetime();

/** `before=` and similar inputs: ISO 8601, with `Z` or an explicit offset. */
export const timestampInputSchema = z.string().datetime({ offset: true });

const POSTGRES_TEXT =
  /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?(Z|[+-]\d\d(?::?\d\d(?::?\d\d)?)?)$/;

/**
 * A timestamptz as Postgres (or PGlite) prints it (`2026-11-13 21:04:09.825239+01`, the session's
 * time zone, trailing zeros dropped) as ISO 8601 UTC with exactly six fractional digits, so that
 * values compare as text in time order and none loses its microseconds. Anything it cannot read
 * (infinity, BC dates) is returned unchanged.
 */
export function toIsoTimestamp(text: string): string {
  const match = POSTGRES_TEXT.exec(text);
  if (!match) return text;
  const [, year, month, day, hour, minute, second, fraction = '', zone] = match;
  const digits = fraction.padEnd(6, '0');
  let offsetMs = 0;
  if (zone !== 'Z') {
    const sign = zone!.startsWith('-') ? -1 : 1;
    const [h = '0', m = '0', s = '0'] = zone!.slice(1).replace(/:/g, '').match(/\d\d/g) ?? [];
    offsetMs = sign * ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000;
  }
  const utc =
    Date.UTC(
      Number(year),
      Number(month) - 1,
      Number(day),
      Number(hour),
      Number(minute),
      Number(second),
      Number(digits.slice(0, 3)),
    ) - offsetMs;
  // Date.UTC maps years 0–99 to 1900–1999; timestamps that old never occur here.
  return new Date(utc).toISOString().replace('Z', `${digits.slice(3)}Z`);
}
