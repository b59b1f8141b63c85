// @vitest-environment jsdom
// DOMPurify needs a spec-complete DOM; happy-dom mis-sanitises (keeps <script>, drops headings).
import { describe, expect, it } from 'vitest';
import { renderMarkdown, slugify } from './markdown';

describe('renderMarkdown', () => {
  it('renders headings with anchor ids, tables and code', () => {
    const html = renderMarkdown('# Hello World\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n```sh\nnpm test\n```');
    expect(html).toContain('<h1 id="hello-world">Hello World</h1>');
    expect(html).toContain('<table>');
    expect(html).toContain('npm test');
  });

  it('strips scripts and event handlers', () => {
    const html = renderMarkdown(
      'Hi <script>alert(1)</script><img src="x" onerror="alert(2)"> [x](javascript:alert(3))',
    );
    expect(html).not.toContain('<script');
    expect(html).not.toContain('onerror');
    expect(html).not.toContain('javascript:');
  });

  it('slugifies heading text', () => {
    expect(slugify('The format script')).toBe('the-format-script');
    expect(slugify('Dev servers & previews')).toBe('dev-servers-previews');
  });
});
