import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDirectory } from './precompress';

describe('precompressDirectory', () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('writes brotli and gzip copies of text files that decompress to the original', async () => {
    dir = mkdtempSync(join(tmpdir(), 'precompress-'));
    mkdirSync(join(dir, 'assets'));
    const script = `console.log(${JSON.stringify('tandem '.repeat(500))});`;
    writeFileSync(join(dir, 'assets', 'index-abc.js'), script);
    writeFileSync(join(dir, 'index.html'), `<!doctype html>${'<p>hi</p>'.repeat(50)}`);
    writeFileSync(join(dir, 'assets', 'logo.png'), Buffer.alloc(4096));
    writeFileSync(join(dir, 'assets', 'index-abc.js.map'), '{}'.repeat(2000));

    const result = await precompressDirectory(dir);

    expect(result.files).toBe(2);
    expect(brotliDecompressSync(readFileSync(join(dir, 'assets', 'index-abc.js.br'))).toString()).toBe(
      script,
    );
    expect(gunzipSync(readFileSync(join(dir, 'assets', 'index-abc.js.gz'))).toString()).toBe(script);
    expect(existsSync(join(dir, 'index.html.br'))).toBe(true);
    // Images are compressed already; source maps are for tools, not for pages.
    expect(existsSync(join(dir, 'assets', 'logo.png.br'))).toBe(false);
    expect(existsSync(join(dir, 'assets', 'index-abc.js.map.gz'))).toBe(false);
  });

  it('keeps no copy that is not smaller than the original', async () => {
    dir = mkdtempSync(join(tmpdir(), 'precompress-'));
    writeFileSync(join(dir, 'tiny.js'), 'x');
    await precompressDirectory(dir);
    expect(existsSync(join(dir, 'tiny.js.br'))).toBe(false);
    expect(existsSync(join(dir, 'tiny.js.gz'))).toBe(false);
  });
});
