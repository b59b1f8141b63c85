import { loginPath } from '../pages/login-path';
import { isThemeShortcut, storeThemeMode, type ThemeMode } from '../theme/theme-mode';
import { recordPageVisit, startSessionTracking } from '../tracking/page-tracking';
import { trackingRefused } from '../tracking/traffic';
import { handOffVisit } from '../tracking/visit-handoff';
import type { DemoDialogHandle } from './demo-dialog-mount';
import { chooseLandingVariant } from './landing-variant';

function safeStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** Loads React, MUI and the dialog on the first Request a Demo: they are most of the app's weight. */
const loadDemoDialog = () => import('./demo-dialog-mount');

/**
 * What the app's landing page does for a visitor, on landing.html's static markup: shows the
 * chosen variant's buttons (and drops the other's), keeps the header's login link pointing back
 * here, runs the theme toggle (button and Alt+T), opens the demo dialog, and tracks the visit.
 */
export function startLanding(options: { loadDemo?: typeof loadDemoDialog } = {}): () => void {
  const doc = document;
  // Tests start the page more than once; the real page never stops it.
  const listening = new AbortController();
  const { signal } = listening;
  const variant = chooseLandingVariant(
    new URLSearchParams(window.location.search).get('landingVariant'),
    safeStorage(),
  );
  const hero = doc.getElementById('hero');
  hero?.setAttribute('data-variant', variant);
  for (const group of doc.querySelectorAll('[data-variant-actions]')) {
    if (group.getAttribute('data-variant-actions') !== variant) group.remove();
  }

  const login = doc.getElementById('header-login');
  login?.setAttribute('href', loginPath(window.location.pathname + window.location.search));

  let mode: ThemeMode = doc.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
  doc.documentElement.dataset.theme = mode;
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

  if (trackingRefused(navigator, window)) return () => listening.abort();
  let recorded = false;
  recordPageVisit().then(
    () => (recorded = true),
    (error: unknown) => console.warn('Visit tracking failed', error),
  );
  // Following one of our links loads the app, which must not record this visit again.
  doc.addEventListener(
    'click',
    (event) => {
      const link = event.target instanceof Element ? event.target.closest('a') : null;
      if (recorded && link && link.origin === window.location.origin) handOffVisit();
    },
    { signal },
  );
  const session = startSessionTracking(() => null);
  session.tracker.pageView(window.location.pathname);
  return () => {
    listening.abort();
    session.stop();
  };
}
