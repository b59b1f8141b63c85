// @vitest-environment jsdom
// DOMPurify needs a spec-complete DOM; happy-dom mis-sanitises (keeps <script>).
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown } from './Markdown';

describe('Markdown', () => {
  it('renders a pull-request body as GitHub would, without what a hostile author adds', () => {
    const { container } = render(
      <Markdown
        source={'## Changes\n- adds **subtract**\n\n<script>alert(1)</script>\n\n![x](https://t.test/p.gif)'}
      />,
    );
    expect(container.querySelector('h2')?.textContent).toBe('Changes');
    expect(container.querySelector('li strong')?.textContent).toBe('subtract');
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
  });
});
