import { describe, expect, it } from 'vitest';
import { fillLandingPage, hasSessionCookie, landingTheme, withLandingTheme } from './landing-page.js';

const TEMPLATE =
  '<nav><a href="/docs">Docs</a><!--tandem:discord--></nav><main><!--tandem:claim--></main><footer><!--tandem:footer--></footer>';
const SITE = {
  discordUrl: 'https://discord.gg/tandem',
  supportEmail: 'help@example.com',
  socialLinks: [{ label: 'X & Co', url: 'https://x.example/tandem?a=1&b=2' }],
  landingClaim: '50,000+',
};

describe('fillLandingPage', () => {
  it("fills the deployment's claim, Discord link and footer links, escaped", () => {
    expect(fillLandingPage(TEMPLATE, SITE)).toBe(
      '<nav><a href="/docs">Docs</a><a href="https://discord.gg/tandem" class="btn text" target="_blank" rel="noopener">Discord</a></nav>' +
        '<main><p>Installed on 50,000+ repositories</p></main>' +
        '<footer><a href="mailto:help@example.com">Contact</a>' +
        '<a href="https://x.example/tandem?a=1&amp;b=2" target="_blank" rel="noopener">X &amp; Co</a></footer>',
    );
  });

  it('leaves out what is not configured, and never reads $ patterns as replacements', () => {
    const html = fillLandingPage(TEMPLATE, {
      ...SITE,
      discordUrl: null,
      landingClaim: null,
      supportEmail: "$'$&@example.com",
      socialLinks: [],
    });
    expect(html).toBe(
      '<nav><a href="/docs">Docs</a></nav><main></main><footer><a href="mailto:$\'$&amp;@example.com">Contact</a></footer>',
    );
  });
});

describe('hasSessionCookie', () => {
  const request = (cookie?: string) => ({ headers: cookie === undefined ? {} : { cookie } });
  it('sees the session cookie among others, and nothing else', () => {
    expect(hasSessionCookie(request('access_token=abc.def.ghi'))).toBe(true);
    expect(hasSessionCookie(request('theme=dark; access_token=abc'))).toBe(true);
    expect(hasSessionCookie(request())).toBe(false);
    expect(hasSessionCookie(request('tandem_lead=x'))).toBe(false);
    expect(hasSessionCookie(request('my_access_token=abc'))).toBe(false);
    expect(hasSessionCookie(request('access_token='))).toBe(false);
  });
});

describe('landingTheme', () => {
  const request = (cookie?: string) => ({ headers: cookie === undefined ? {} : { cookie } });
  it("reads the theme cookie's light or dark, and nothing else", () => {
    expect(landingTheme(request('theme=dark'))).toBe('dark');
    expect(landingTheme(request('access_token=a; theme=light; lead=x'))).toBe('light');
    expect(landingTheme(request('theme=light '))).toBe('light');
    for (const cookie of [
      undefined,
      '',
      'theme=',
      'theme=Dark',
      'theme=darker',
      'mytheme=dark',
      'theme=dark,x',
    ])
      expect(landingTheme(request(cookie)), cookie).toBe('system');
  });
});

describe('withLandingTheme', () => {
  it('marks the root element, and leaves the page alone for the system theme', () => {
    const html = '<!doctype html>\n<html lang="en"><head></head><body></body></html>';
    expect(withLandingTheme(html, 'dark')).toBe(
      '<!doctype html>\n<html data-theme="dark" lang="en"><head></head><body></body></html>',
    );
    expect(withLandingTheme(html, 'system')).toBe(html);
  });
});
