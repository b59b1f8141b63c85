import { afterFirstFrame } from '../lib/after-first-frame';
import { webStorage } from '../lib/storage';
import { loginPath } from '../pages/login-path';
import {
  initialThemeMode,
  isThemeShortcut,
  storeThemeMode,
  syncThemeCookie,
  type ThemeMode,
} from '../theme/theme-mode';
import type { DemoDialogHandle } from './demo-dialog-mount';
import { chooseLandingVariant } from './landing-variant';

/** Loads React, MUI and the dialog on the first Request a Demo: they are most of the app's weight. */
const loadDemoDialog = () => import('./demo-dialog-mount');
const loadTracking = () => import('./landing-tracking');

/**
 * What the app's landing page does for a visitor, on landing.html's static markup: shows the
 * chosen variant's buttons (and drops the other's), keeps the header's login link pointing back
 * here, runs the theme toggle (button and Alt+T), opens the demo dialog, and, once the page is
 * painted, tracks the visit (landing-tracking.ts).
 */
export function startLanding(
  options: { loadDemo?: typeof loadDemoDialog; loadTracking?: typeof loadTracking } = {},
): () => void {
  const doc = document;
  // Tests start the page more than once; the real page never stops it.
  const listening = new AbortController();
  const { signal } = listening;
  const variant = chooseLandingVariant(
    new URLSearchParams(window.location.search).get('landingVariant'),
    webStorage(),
  );
  const hero = doc.getElementById('hero');
  hero?.setAttribute('data-variant', variant);
  for (const group of doc.querySelectorAll('[data-variant-actions]')) {
    if (group.getAttribute('data-variant-actions') !== variant) group.remove();
  }

  const login = doc.getElementById('header-login');
  login?.setAttribute('href', loginPath(window.location.pathname + window.location.search));

  // The server painted the page in the cookie's theme, else the system's (CSS); local storage is the
  // authority, and a choice stored before the cookie existed is applied now and mirrored into it.
  let mode: ThemeMode = initialThemeMode();
  doc.documentElement.dataset.theme = mode;
  syncThemeCookie();
  let demo: Promise<DemoDialogHandle> | undefined;
  const toggleTheme = () => {
    mode = mode === 'light' ? 'dark' : 'light';
    storeThemeMode(mode);
    doc.documentElement.dataset.theme = mode;
    void demo?.then((dialog) => dialog.setMode(mode));
  };
  doc.getElementById('theme-toggle')?.addEventListener('click', toggleTheme, { signal });
  window.addEventListener(
    'keydown',
    (event) => {
      if (!isThemeShortcut(event)) return;
      event.preventDefault();
      toggleTheme();
    },
    { signal },
  );

  const container = doc.getElementById('demo-dialog');
  doc.getElementById('request-demo')?.addEventListener(
    'click',
    () => {
      if (!container) return;
      demo ??= (options.loadDemo ?? loadDemoDialog)().then((m) => m.mountDemoDialog(container, mode));
      demo.then(
        (dialog) => dialog.open(),
        (error: unknown) => {
          // A failed chunk load (offline, new deployment): let the next click try again.
          demo = undefined;
          console.warn('Loading the demo request form failed', error);
        },
      );
    },
    { signal },
  );

  let stopTracking: (() => void) | undefined;
  afterFirstFrame(() => {
    if (signal.aborted) return;
    (options.loadTracking ?? loadTracking)().then(
      (m) => {
        if (!signal.aborted) stopTracking = m.trackLanding();
      },
      (error: unknown) => console.warn('Visit tracking failed', error),
    );
  });
  return () => {
    listening.abort();
    stopTracking?.();
  };
}
