import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes } from './inline-scripts.js';

const sha = (body: string) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`;

describe('inlineScriptHashes', () => {
  it('hashes the exact text of each inline script, whitespace included', () => {
    const body = "\n      try { document.documentElement.dataset.theme = 'dark'; } catch (e) {}\n    ";
    const html = `<html><head><script>${body}</script><script type="module" src="/assets/a.js"></script></head><body><script nonce="x">b()</script></body></html>`;
    expect(inlineScriptHashes(html)).toEqual([sha(body), sha('b()')]);
  });

  it('ignores external and empty scripts', () => {
    expect(
      inlineScriptHashes('<script src="/x.js"></script><script>  </script><SCRIPT SRC=/y.js></SCRIPT>'),
    ).toEqual([]);
  });
});
