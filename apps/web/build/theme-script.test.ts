import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexHtmlTransformContext, IndexHtmlTransformHook } from 'vite';
import { describe, expect, it } from 'vitest';
import { THEME_SCRIPT, THEME_SCRIPT_SLOT, themeScript } from './theme-script';

function transform(html: string, filename: string): string {
  const hook = themeScript(['index.html']).transformIndexHtml as { handler: IndexHtmlTransformHook };
  return hook.handler.call({} as never, html, { filename } as IndexHtmlTransformContext) as string;
}

const page = (name: string) => join(__dirname, '..', name);

describe('the theme script plugin', () => {
  it("puts the one theme script into the app's shell, before anything is painted", () => {
    const built = transform(readFileSync(page('index.html'), 'utf8'), page('index.html'));
    expect(built).not.toContain(THEME_SCRIPT_SLOT);
    expect(built.split(THEME_SCRIPT).length - 1).toBe(1);
    // Before the stylesheet and the body: the theme is set before anything is painted.
    expect(built.indexOf(THEME_SCRIPT)).toBeLessThan(built.indexOf('<style>'));
  });

  it('leaves the landing page without a script before its paint (its theme comes from a cookie)', () => {
    const html = readFileSync(page('landing.html'), 'utf8');
    const built = transform(html, page('landing.html'));
    expect(built).toBe(html);
    expect(built).not.toMatch(/<script(?![^>]*\btype="module")/);
  });

  it('fails the build for a required page without the slot', () => {
    expect(() => transform('<html><head></head></html>', '/web/index.html')).toThrow(
      '/web/index.html has no <!--build:theme-script--> for the theme script',
    );
  });
});
