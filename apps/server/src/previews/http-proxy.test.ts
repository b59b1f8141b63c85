import { describe, expect, it } from 'vitest';
import { injectIntoHtml, localRedirect } from './http-proxy.js';

describe('the preview proxy’s rewrites', () => {
  it('puts the frame script first in <head>, else after <html>, else first', () => {
    const script = '<script src="/__tandem/frame.js"></script>';
    expect(injectIntoHtml('<!doctype html><html><head lang="x"><title>t</title>', script)).toBe(
      `<!doctype html><html><head lang="x">${script}<title>t</title>`,
    );
    expect(injectIntoHtml('<html class="a"><body>x', script)).toBe(`<html class="a">${script}<body>x`);
    expect(injectIntoHtml('<p>bare</p>', script)).toBe(`${script}<p>bare</p>`);
    // <header> is not <head>.
    expect(injectIntoHtml('<header>h</header>', script)).toBe(`${script}<header>h</header>`);
  });

  it("keeps redirects to the server's own local address on the preview's origin", () => {
    expect(localRedirect('http://localhost:3000/login?next=/', 3000)).toBe('/login?next=/');
    expect(localRedirect('http://127.0.0.1:3000', 3000)).toBe('/');
    expect(localRedirect('http://localhost:4000/x', 3000)).toBe('http://localhost:4000/x');
    expect(localRedirect('https://github.com/login', 3000)).toBe('https://github.com/login');
    expect(localRedirect('/relative', 3000)).toBe('/relative');
  });
});
