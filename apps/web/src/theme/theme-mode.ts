import { STORAGE_KEYS } from '@tandem/shared';

export type ThemeMode = 'light' | 'dark';

/** The stored choice, else the system preference. Storage may be unavailable (privacy modes). */
export function initialThemeMode(): ThemeMode {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEYS.theme);
    if (stored === 'light' || stored === 'dark') return stored;
  } catch {
    // fall through to the system preference
  }
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function storeThemeMode(mode: ThemeMode): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS.theme, mode);
  } catch {
    // the toggle still works for this page view
  }
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
