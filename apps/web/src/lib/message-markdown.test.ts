// @vitest-environment jsdom
// DOMPurify needs a spec-complete DOM; happy-dom mis-sanitises (keeps <script>, drops headings).
import { describe, expect, it } from 'vitest';
import { renderMessageMarkdown } from './message-markdown';

describe('renderMessageMarkdown', () => {
  it('renders GitHub-flavoured Markdown with line breaks kept', () => {
    const html = renderMessageMarkdown(
      '## Summary\nAdds **subtract**\nand `multiply`.\n\n- [x] tests\n\n| a | b |\n| - | - |\n| 1 | 2 |',
    );
    expect(html).toContain('<h2>Summary</h2>');
    expect(html).toContain('<strong>subtract</strong><br>');
    expect(html).toContain('<code>multiply</code>');
    expect(html).toContain('<table>');
    expect(html).toContain('tests');
  });

  it('drops scripts, handlers, javascript links, images, forms, styles and ids', () => {
    const html = renderMessageMarkdown(
      [
        'text <script>alert(1)</script> <img src="https://x.test/p.png" onerror="alert(2)">',
        '[x](javascript:alert(3))',
        '![pixel](https://tracker.test/p.gif)',
        'a <form action="/x"><input name="a"></form> <b id="root" style="color:red">b</b>',
      ].join('\n\n'),
    );
    for (const bad of [
      '<script',
      'onerror',
      'href="javascript:',
      '<img',
      'tracker.test',
      '<form',
      '<input',
      'id="root"',
      'style=',
    ]) {
      expect(html).not.toContain(bad);
    }
    expect(html).toContain('<b>b</b>');
  });

  it('opens links in a new tab without opener or referrer', () => {
    const html = renderMessageMarkdown('See [the PR](https://github.com/acme/webapp/pull/1).');
    expect(html).toContain('href="https://github.com/acme/webapp/pull/1"');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
  });

  it('makes code blocks keyboard-focusable, so long lines can be scrolled', () => {
    expect(renderMessageMarkdown('```\nnpm test\n```')).toMatch(/^<pre tabindex="0"><code>npm test/);
  });
});
