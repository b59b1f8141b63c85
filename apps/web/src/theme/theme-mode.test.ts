import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialThemeMode, storeThemeMode, syncThemeCookie } from './theme-mode';

const themeCookie = () => /(?:^|;\s*)theme=([^;]*)/.exec(document.cookie)?.[1];
const clearCookie = () => (document.cookie = 'theme=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT');

describe('the theme choice and its cookie', () => {
  beforeEach(() => {
    localStorage.clear();
    clearCookie();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
    clearCookie();
  });

  it('stores a choice in local storage and in the cookie the server reads', () => {
    storeThemeMode('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(themeCookie()).toBe('dark');
    storeThemeMode('light');
    expect(themeCookie()).toBe('light');
    expect(initialThemeMode()).toBe('light');
  });

  it('mirrors a choice stored before the cookie existed, and drops a cookie without a choice', () => {
    localStorage.setItem('theme', 'dark');
    syncThemeCookie();
    expect(themeCookie()).toBe('dark');

    localStorage.clear();
    syncThemeCookie();
    expect(themeCookie()).toBeUndefined();

    // A value nobody wrote (edited by hand) goes too; storage stays the authority.
    document.cookie = 'theme=blue; Path=/';
    syncThemeCookie();
    expect(themeCookie()).toBeUndefined();
    localStorage.setItem('theme', 'neon');
    document.cookie = 'theme=dark; Path=/';
    syncThemeCookie();
    expect(themeCookie()).toBeUndefined();
  });

  it('keeps a cookie that agrees, and keeps it when storage is unavailable', () => {
    localStorage.setItem('theme', 'light');
    document.cookie = 'theme=light; Path=/';
    syncThemeCookie();
    expect(themeCookie()).toBe('light');

    document.cookie = 'theme=dark; Path=/';
    // As in a privacy mode that refuses storage to the page.
    vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    syncThemeCookie();
    expect(themeCookie()).toBe('dark');
  });
});
