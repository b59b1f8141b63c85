import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';

describe('renderMarkdown', () => {
  it('renders GitHub-flavoured Markdown: tables, task lists, strikethrough, autolinks, fences', () => {
    const html = renderMarkdown(
      [
        '| a | b |',
        '| - | - |',
        '| 1 | 2 |',
        '',
        '- [x] done',
        '- [ ] todo',
        '',
        '~~gone~~ see https://example.com/x',
        '',
        '```js',
        'const a = 1 < 2;',
        '```',
      ].join('\n'),
    );
    expect(html).toContain('<table>');
    expect(html).toContain('<td>1</td>');
    expect(html).toContain('<input type="checkbox" disabled checked aria-label="Done"> done');
    expect(html).toContain('<input type="checkbox" disabled aria-label="Not done"> todo');
    expect(html).toContain('<s>gone</s>');
    expect(html).toContain('<a href="https://example.com/x" rel="nofollow noopener noreferrer">');
    expect(html).toContain('<code class="language-js">const a = 1 &lt; 2;');
  });

  it('never lets script, event handlers or raw HTML through', () => {
    const html = renderMarkdown(
      [
        '<script>alert(1)</script>',
        '<img src=x onerror="alert(1)">',
        '<a href="javascript:alert(1)">raw</a>',
        '<iframe src="https://evil.test"></iframe>',
        '<div style="x">block</div>',
        '![img](x" onerror="alert(1))',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/<script|<img src=x|<iframe|<div style|<a href="javascript/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // The attribute text survives only as escaped text, never as an attribute.
    expect(html).not.toMatch(/<[^>]+\sonerror=/i);
  });

  it('drops links and images with javascript:, data:, vbscript: and unknown schemes', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java&#x09;script:alert(1)',
      'java%0ascript:alert(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      'data:image/png;base64,AAAA',
      'vbscript:msgbox',
      'file:///etc/passwd',
      'custom:thing',
    ]) {
      const html = renderMarkdown(`[click](${href}) ![pic](${href}) <${href}>`);
      expect(html, href).not.toMatch(/<a |<img /);
    }
  });

  it('keeps safe links: http(s), mailto, relative paths and fragments', () => {
    const html = renderMarkdown('[a](https://x.test) [b](mailto:a@x.test) [c](docs/a.md) [d](#top)');
    for (const href of ['https://x.test', 'mailto:a@x.test', 'docs/a.md', '#top'])
      expect(html).toContain(`href="${href}"`);
  });
});
