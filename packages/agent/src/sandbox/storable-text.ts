/**
 * Postgres `text` and `jsonb` reject U+0000, and `jsonb` rejects a lone UTF-16 surrogate (JSON's
 * `\ud800` escape): a command printing either must not make the run fail when its output is stored.
 * NUL is dropped (it shows nothing), a lone surrogate becomes U+FFFD (what a UTF-8 decoder shows).
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what is looked for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

export function storableText(text: string): string {
  // Most text has neither: skip the copy.
  if (!UNSTORABLE.test(text)) return text;
  return text.replace(UNSTORABLE_ALL, (found) => (found === '\u0000' ? '' : '\ufffd'));
}

/** Every string (and object key) inside a JSON-like value made storable; the shape is kept. */
export function storableDeep<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => storableDeep(item)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [storableText(key), storableDeep(item)]),
    ) as T;
  }
  return value;
}
