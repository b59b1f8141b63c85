import type { Plugin } from 'vite';

/** Where an HTML page of the build wants the theme script (index.html and landing.html). */
export const THEME_SCRIPT_SLOT = '<!--build:theme-script-->';

/**
 * Sets the visitor's theme before the first paint, so both pages paint their plain-HTML header in
 * it before any file loads. It mirrors src/theme/theme-mode.ts (the 'theme' storage key, else the
 * system preference). The server allows it by its hash in the Content-Security-Policy, computed
 * from the built pages (apps/server/src/http/inline-scripts.ts): one text here, one hash there.
 */
export const THEME_SCRIPT = `<script>
      try {
        var t = localStorage.getItem('theme');
        document.documentElement.dataset.theme =
          t === 'light' || t === 'dark'
            ? t
            : matchMedia('(prefers-color-scheme: dark)').matches
              ? 'dark'
              : 'light';
      } catch (e) {}
    </script>`;

/** Puts THEME_SCRIPT in each page's slot; a page without the slot fails the build. */
export function themeScript(): Plugin {
  return {
    name: 'tandem-theme-script',
    transformIndexHtml: {
      order: 'pre',
      handler(html, context) {
        if (!html.includes(THEME_SCRIPT_SLOT))
          throw new Error(`${context.filename} has no ${THEME_SCRIPT_SLOT} for the theme script`);
        return html.replace(THEME_SCRIPT_SLOT, THEME_SCRIPT);
      },
    },
  };
}
