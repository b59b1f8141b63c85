import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPagesHarness, type PagesHarness } from '../testing/pages-harness.js';

describe('code host pages: files, raw, commits', () => {
  let h: PagesHarness;
  let bob: string;
  let featureSha: string;
  beforeAll(async () => {
    h = await startPagesHarness();
    bob = await h.signIn('bob');
    featureSha = await h.commit(
      'acme/webapp',
      'feature/x',
      {
        'docs/README.md': '# Docs\n\n- [x] written\n\n<script>alert(1)</script>\n',
        'docs/page.html': '<html><script>alert(1)</script></html>\n',
        'bin/blob.dat': 'a\0b\0c',
        'big.txt': 'x'.repeat(600 * 1024),
      },
      'Add docs\n\nWith a longer description.',
    );
  });
  afterAll(async () => h?.close());

  it('lists a directory with links, breadcrumbs, branches and its README rendered', async () => {
    const root = await h.get('/acme/webapp/tree/main', bob);
    expect(root.status).toBe(200);
    expect(root.text).toContain('<a href="/acme/webapp/tree/main/src">src/</a>');
    expect(root.text).toContain('<a href="/acme/webapp/blob/main/README.md">README.md</a>');
    expect(root.text).toMatch(/<ul aria-label="Branches">.*feature\/x.*<\/ul>/s);
    expect(root.text).toContain('<h1>webapp</h1>');
    // Slashes in the ref: the longest branch prefix wins, the rest is the path.
    const docs = await h.get('/acme/webapp/tree/feature/x/docs', bob);
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('<a href="/acme/webapp/blob/feature/x/docs/page.html">page.html</a>');
    expect(docs.text).toContain(
      '<li><a href="/acme/webapp/tree/feature/x">webapp</a></li><li aria-current="page">docs</li>',
    );
    expect(docs.text).toContain('<input type="checkbox" disabled checked aria-label="Done"> written');
    expect(docs.text).not.toContain('<script>');
    // A sha works as the ref too.
    expect((await h.get(`/acme/webapp/tree/${featureSha.slice(0, 10)}/docs`, bob)).status).toBe(200);
    // The repository home links files into the browser.
    expect((await h.get('/acme/webapp', bob)).text).toContain('href="/acme/webapp/tree/main/src"');
  });

  it('shows a file with line numbers, binary and oversized files as a note, and Raw as plain text', async () => {
    const blob = await h.get('/acme/webapp/blob/main/src/math.js', bob);
    expect(blob.text).toContain('<tr id="L2"><td class="num">2</td><td>  return a + b;</td></tr>');
    expect(blob.text).toContain('href="/acme/webapp/raw/main/src/math.js">Raw</a>');
    const binary = await h.get('/acme/webapp/blob/feature/x/bin/blob.dat', bob);
    expect(binary.text).toContain('Binary file not shown');
    expect(binary.text).not.toContain('\0');
    expect((await h.get('/acme/webapp/blob/feature/x/big.txt', bob)).text).toContain('too large to display');
    const html = await h.get('/acme/webapp/blob/feature/x/docs/page.html', bob);
    expect(html.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');

    const raw = await h.get('/acme/webapp/raw/feature/x/docs/page.html', bob);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(raw.headers.get('x-content-type-options')).toBe('nosniff');
    expect(raw.headers.get('content-security-policy')).toContain('sandbox');
    expect(raw.text).toBe('<html><script>alert(1)</script></html>\n');
    // A directory's blob URL goes to the tree, a file's tree URL to the blob.
    expect((await h.get('/acme/webapp/blob/main/src', bob)).headers.get('location')).toBe(
      '/acme/webapp/tree/main/src',
    );
    expect((await h.get('/acme/webapp/tree/main/README.md', bob)).headers.get('location')).toBe(
      '/acme/webapp/blob/main/README.md',
    );
  });

  it('refuses path traversal, option-like refs and unknown refs with a 404', async () => {
    for (const path of [
      '/acme/webapp/blob/main/../README.md',
      '/acme/webapp/blob/main/src/../../README.md',
      '/acme/webapp/blob/main/%2e%2e/README.md',
      '/acme/webapp/blob/main/src/%2E%2E/%2e%2e/x',
      '/acme/webapp/blob/main/./README.md',
      '/acme/webapp/blob/main//README.md',
      '/acme/webapp/raw/main/%2e%2e%2fREADME.md',
      '/acme/webapp/blob/main/a%00b',
      '/acme/webapp/tree/--output=%2ftmp%2fx',
      '/acme/webapp/blob/-n/README.md',
      '/acme/webapp/raw/--help/README.md',
      '/acme/webapp/tree/HEAD~1',
      '/acme/webapp/tree/main%5E',
      '/acme/webapp/tree/nope/src',
      '/acme/webapp/commits/--all',
      '/acme/webapp/commits/-n1',
      '/acme/webapp/commit/--help',
      '/acme/webapp/commit/-1',
      '/acme/webapp/commit/HEAD',
      '/acme/webapp/commit/0000000000000000000000000000000000000000',
    ]) {
      expect(await h.rawGet(path, bob), path).toBe(404);
    }
    expect(await h.rawGet('/acme/webapp/blob/main/README.md', bob)).toBe(200);
  });

  it('pages through commits and shows one commit with parents and a coloured diff', async () => {
    const list = await h.get('/acme/webapp/commits/feature/x', bob);
    expect(list.text).toContain(`<a href="/acme/webapp/commit/${featureSha}">Add docs</a>`);
    expect(list.text).toContain('Initial commit');
    expect(list.text).not.toContain('rel="next"');
    // 35 more commits: two pages, each linking to the other.
    const last = await h.chain('acme/api', 'long', 35);
    const first = await h.get('/acme/api/commits/long', bob);
    expect(first.text).toContain(`/acme/api/commit/${last}`);
    expect(first.text).toContain('<a href="/acme/api/commits/long?page=2" rel="next">Older</a>');
    const second = await h.get('/acme/api/commits/long?page=2', bob);
    expect(second.text).toContain('Initial commit');
    expect(second.text).toContain('<a href="/acme/api/commits/long?page=1" rel="prev">Newer</a>');
    expect(second.text).not.toContain(`/acme/api/commit/${last}`);
    expect((await h.get('/acme/api/commits/long?page=0', bob)).status).toBe(404);
    expect((await h.get('/acme/api/commits/long?page=x', bob)).status).toBe(404);

    const commit = await h.get(`/acme/webapp/commit/${featureSha.slice(0, 12)}`, bob);
    expect(commit.status).toBe(200);
    expect(commit.text).toContain('<h1>Add docs</h1>');
    expect(commit.text).toContain('With a longer description.');
    expect(commit.text).toMatch(
      /Parents: <a href="\/acme\/webapp\/commit\/[0-9a-f]{40}"><code>[0-9a-f]{7}<\/code><\/a>/,
    );
    expect(commit.text).toContain(
      '<tr class="add"><td class="num"></td><td class="num">1</td><td>+# Docs</td></tr>',
    );
    expect(commit.text).toContain('docs/page.html');
    const root = await h.get('/acme/webapp/commits/main', bob);
    const initial = /\/acme\/webapp\/commit\/([0-9a-f]{40})">Initial commit/.exec(root.text)![1]!;
    expect((await h.get(`/acme/webapp/commit/${initial}`, bob)).text).toContain('none (first commit)');
  });
});
