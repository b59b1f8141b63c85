import type { Plugin } from 'vite';

/** Where an HTML page of the build wants the theme script (index.html, the app's shell). */
export const THEME_SCRIPT_SLOT = '<!--build:theme-script-->';

/**
 * Sets the visitor's theme before the first paint, so the app's shell paints its plain-HTML header
 * in it before any file loads. (landing.html has no script before its paint: the server sets its
 * theme from the theme cookie, and CSS follows the system's otherwise.) It mirrors src/theme/theme-mode.ts (the 'theme' storage key, else the
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

/**
 * Puts THEME_SCRIPT in each page's slot; one of `required` (file names) without the slot fails the
 * build, so the shell cannot lose its theme by an edit.
 */
export function themeScript(required: readonly string[]): Plugin {
  return {
    name: 'tandem-theme-script',
    transformIndexHtml: {
      order: 'pre',
      handler(html, context) {
        if (html.includes(THEME_SCRIPT_SLOT)) return html.replace(THEME_SCRIPT_SLOT, THEME_SCRIPT);
        if (required.some((name) => context.filename.endsWith(`/${name}`)))
          throw new Error(`${context.filename} has no ${THEME_SCRIPT_SLOT} for the theme script`);
        return html;
      },
    },
  };
}
