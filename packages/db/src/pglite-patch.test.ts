import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * scripts/patch-dependencies.mjs: PGlite's protocol reader decodes each text field from a view of
 * the result's bytes instead of a copy of them (docs/decisions.md "Decoding PGlite's results
 * without a copy").
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const script = join(root, 'scripts', 'patch-dependencies.mjs');
const run = promisify(execFile);
const pgliteDist = join(root, 'node_modules', '@electric-sql', 'pglite', 'dist');
const FROM = 'string(t){return r(this,le).decode(this.bytes(t))}';
const TO =
  'string(t){let n=r(this,w);return d(this,w,n+t),r(this,le).decode(new Uint8Array(r(this,x).buffer,n,t))}';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A fake install root whose PGlite dist holds one file with `text`. */
function fakeRoot(text: string): { root: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-patch-'));
  dirs.push(dir);
  const dist = join(dir, 'node_modules', '@electric-sql', 'pglite', 'dist');
  mkdirSync(dist, { recursive: true });
  const file = join(dist, 'chunk-test.js');
  writeFileSync(file, text);
  return { root: dir, file };
}

describe('the dependency patch script', () => {
  it('replaces the copying decode, once, and leaves the rest of the file as it was', async () => {
    const { root: fake, file } = fakeRoot(`a;${FROM}bytes(t){};b`);
    const first = await run(process.execPath, [script, fake]);
    expect(first.stdout).toContain('dependency patch applied');
    expect(readFileSync(file, 'utf8')).toBe(`a;${TO}bytes(t){};b`);
    const second = await run(process.execPath, [script, fake]);
    expect(second.stdout).toBe('');
    expect(second.stderr).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(`a;${TO}bytes(t){};b`);
  });

  it('changes nothing and says so when the package no longer has that code', async () => {
    const { root: fake, file } = fakeRoot('string(t){return somethingElse(t)}');
    const { stdout, stderr } = await run(process.execPath, [script, fake]);
    expect(stdout).toBe('');
    expect(stderr).toContain('dependency patch not applied (its code changed)');
    expect(readFileSync(file, 'utf8')).toBe('string(t){return somethingElse(t)}');
  });
});

describe('the installed PGlite', () => {
  it('is patched (npm ci runs the script as postinstall)', () => {
    const texts = readdirSync(pgliteDist)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(pgliteDist, f), 'utf8'));
    expect(texts.some((text) => text.includes(TO))).toBe(true);
    expect(texts.some((text) => text.includes(FROM))).toBe(false);
  });

  it('still decodes every text field exactly: multi-byte, empty, null, long, and names', async () => {
    const db = await PGlite.create();
    try {
      const long = 'ä€😀x'.repeat(50_000);
      const values = ['', 'plain', 'Grüße – 日本語 😀', '\u00e9\u0301', long];
      await db.exec('create table "tëst ☃" ("välue 😀" text, n int)');
      for (const [i, value] of values.entries())
        await db.query('insert into "tëst ☃" values ($1, $2)', [value, i]);
      await db.query('insert into "tëst ☃" values (null, 99)');
      const result = await db.query<Record<string, unknown>>('select * from "tëst ☃" order by n');
      expect(result.fields.map((f) => f.name)).toEqual(['välue 😀', 'n']);
      expect(result.rows.map((row) => row['välue 😀'])).toEqual([...values, null]);
      // Fields after a long one are read from the right place.
      expect(result.rows.map((row) => row.n)).toEqual([0, 1, 2, 3, 4, 99]);
      const error = await db.query('select * from "nö such täble"').catch((e: unknown) => e);
      expect((error as Error).message).toBe('relation "nö such täble" does not exist');
    } finally {
      await db.close();
    }
  });
});
