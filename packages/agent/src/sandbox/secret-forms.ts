import { SECRET_SCRUB_SAFE_LENGTH } from '@tandem/shared';

/**
 * The spellings of a secret value that the scrubber looks for: the value itself and the encodings a
 * command turns it into with one standard tool (`base64`, `xxd -p`, `od`-free hex, `rev`, URL
 * encoding). Anything else (splitting with spaces, encrypting, other encodings) is not covered:
 * scrubbing is defense in depth, not a boundary (docs/security/secrets.md).
 */

/**
 * Encoded forms are built for values up to this many characters (every real token fits); longer
 * values (certificates, keys) are matched as written and reversed only, to bound the matcher's size.
 */
export const MAX_ENCODED_SECRET_LENGTH = 1024;

const toUrlSafe = (base64: string) => base64.replace(/\+/g, '-').replace(/\//g, '_');

function reversed(value: string): string {
  return [...value].reverse().join('');
}

/**
 * The base64 characters that depend only on the value's bytes when it sits at a byte offset whose
 * remainder modulo 3 is `offset` inside a longer input (e.g. `echo $TOKEN | base64` encodes the
 * value followed by a newline). The characters shared with neighbouring bytes are dropped.
 */
function base64Aligned(bytes: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
  const start = Math.ceil((offset * 8) / 6);
  const end = Math.floor(((offset + bytes.length) * 8) / 6);
  return encoded.slice(start, end);
}

/** Every spelling of one value, longest first; empty values have none. */
export function secretForms(value: string): { forms: string[]; wholeTokenOnly: boolean } {
  if (!value) return { forms: [], wholeTokenOnly: false };
  // Shorter values are matched anywhere only at the cost of shredding ordinary words.
  const wholeTokenOnly = [...value].length < SECRET_SCRUB_SAFE_LENGTH;
  const forms = new Set([value, reversed(value)]);
  if (value.length <= MAX_ENCODED_SECRET_LENGTH) {
    const bytes = Buffer.from(value, 'utf8');
    const hex = bytes.toString('hex');
    forms.add(hex).add(hex.toUpperCase());
    const uri = encodeURIComponent(value);
    forms.add(uri).add(uri.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()));
    const base64 = bytes.toString('base64');
    const unpadded = base64.replace(/=+$/, '');
    forms.add(base64).add(unpadded).add(toUrlSafe(base64)).add(toUrlSafe(unpadded));
    // Fragments of a longer encoded input; for short values they would shred unrelated base64.
    if (!wholeTokenOnly) {
      for (const offset of [0, 1, 2]) {
        const aligned = base64Aligned(bytes, offset);
        forms.add(aligned).add(toUrlSafe(aligned));
      }
    }
  }
  // A short encoding (`31` for the value `1`, `MQ==`) collides with ordinary text far more often
  // than the value itself, which the user confirmed: only the value and long encodings are kept.
  const kept = [...forms].filter((form) => form === value || [...form].length >= SECRET_SCRUB_SAFE_LENGTH);
  return { forms: kept.sort((a, b) => b.length - a.length), wholeTokenOnly };
}
