import { STORAGE_KEYS, THEME_COOKIE } from '@tandem/shared';

export type ThemeMode = 'light' | 'dark';

const asThemeMode = (value: string | null): ThemeMode | null =>
  value === 'light' || value === 'dark' ? value : null;

/** Local storage's choice, or null when there is none (or no storage). */
function storedThemeMode(): ThemeMode | null {
  try {
    return asThemeMode(window.localStorage.getItem(STORAGE_KEYS.theme));
  } catch {
    return null;
  }
}

/** The stored choice, else the system preference. Storage may be unavailable (privacy modes). */
export function initialThemeMode(): ThemeMode {
  return (
    storedThemeMode() ?? (window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')
  );
}

const THEME_COOKIE_VALUE = new RegExp(`(?:^|;)\\s*${THEME_COOKIE}=([^;]*)`);

/**
 * Writes the theme cookie (or removes it, for null): the server reads it to send the landing
 * page already in the visitor's theme (docs/decisions.md "The landing page's theme from a cookie").
 * Not HttpOnly: it is a display preference, and this is the code that keeps it.
 */
function writeThemeCookie(mode: ThemeMode | null): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // A date in the past removes it (understood everywhere; Max-Age=0 is not, by happy-dom at least).
  const lifetime = mode ? `Max-Age=${365 * 24 * 60 * 60}` : 'Expires=Thu, 01 Jan 1970 00:00:00 GMT';
  document.cookie = `${THEME_COOKIE}=${mode ?? ''}; Path=/; ${lifetime}; SameSite=Lax${secure}`;
}

/** The choice in local storage (the spec's home for it) and in its cookie. */
export function storeThemeMode(mode: ThemeMode): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS.theme, mode);
  } catch {
    // the toggle still works for this page view
  }
  writeThemeCookie(mode);
}

/**
 * Makes the cookie agree with local storage, which stays the authority: a choice stored before
 * the cookie existed, or a cookie outliving a cleared storage. Called when a page starts.
 */
export function syncThemeCookie(): void {
  let stored: ThemeMode | null;
  try {
    stored = asThemeMode(window.localStorage.getItem(STORAGE_KEYS.theme));
  } catch {
    return; // no storage to agree with: the cookie is all there is
  }
  const cookie = THEME_COOKIE_VALUE.exec(document.cookie)?.[1] ?? null;
  if (asThemeMode(cookie) !== stored || (stored === null && cookie !== null)) writeThemeCookie(stored);
}

/**
 * Alt+T: matched on the physical key because macOS turns Option+T into "†". Auto-repeat is ignored so
 * holding the keys does not strobe between themes.
 */
export function isThemeShortcut(event: KeyboardEvent): boolean {
  return (
    event.altKey &&
    !event.repeat &&
    !event.ctrlKey &&
    !event.metaKey &&
    (event.code === 'KeyT' || event.key.toLowerCase() === 't')
  );
}
