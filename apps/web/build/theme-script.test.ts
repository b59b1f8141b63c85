import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexHtmlTransformContext, IndexHtmlTransformHook } from 'vite';
import { describe, expect, it } from 'vitest';
import { THEME_SCRIPT, THEME_SCRIPT_SLOT, themeScript } from './theme-script';

function transform(html: string, filename: string): string {
  const hook = themeScript().transformIndexHtml as { handler: IndexHtmlTransformHook };
  return hook.handler.call({} as never, html, { filename } as IndexHtmlTransformContext) as string;
}

describe('the theme script plugin', () => {
  it('puts the one theme script into both pages of the build', () => {
    for (const page of ['index.html', 'landing.html']) {
      const html = readFileSync(join(__dirname, '..', page), 'utf8');
      const built = transform(html, page);
      expect(built).not.toContain(THEME_SCRIPT_SLOT);
      expect(built.split(THEME_SCRIPT).length - 1).toBe(1);
      // Before the stylesheet and the body: the theme is set before anything is painted.
      expect(built.indexOf(THEME_SCRIPT)).toBeLessThan(built.indexOf('<style>'));
    }
  });

  it('fails the build for a page without the slot', () => {
    expect(() => transform('<html><head></head></html>', 'other.html')).toThrow(
      'other.html has no <!--build:theme-script--> for the theme script',
    );
  });
});
