/**
 * Only same-origin paths are honoured after sign-in: "/x" yes; "//evil.com", "/\\evil.com",
 * "https://evil.com" and anything with control characters fall back to "/".
 */
export function safeReturnPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || value === '') return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return fallback;
  return value;
}
