/**
 * Web storage that never throws (private windows, full quota): a failed write only loses the
 * choice. Local storage by default; pass `session` for what lasts one tab (unsent messages).
 */
type Area = 'local' | 'session';

const storeOf = (area: Area) => (area === 'session' ? window.sessionStorage : window.localStorage);

/** The storage area itself, or undefined where the browser refuses it (for APIs that take a Storage). */
export function webStorage(area: Area = 'local'): Storage | undefined {
  try {
    return storeOf(area);
  } catch {
    return undefined;
  }
}

export function readStored(key: string, area: Area = 'local'): string | null {
  try {
    return storeOf(area).getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string, area: Area = 'local'): void {
  try {
    storeOf(area).setItem(key, value);
  } catch {
    // the choice just lasts for this page
  }
}

export function removeStored(key: string, area: Area = 'local'): void {
  try {
    storeOf(area).removeItem(key);
  } catch {
    // nothing to clean up then
  }
}

/** Stored JSON, or undefined when the text is missing or not JSON: callers check the shape. */
export function parseStoredJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export const readStoredJson = (key: string, area: Area = 'local'): unknown =>
  parseStoredJson(readStored(key, area));
