import { render, screen, within } from '@testing-library/react';
import type { SpiceItem } from '@tandem/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SpiceWindow } from './SpiceWindow';

function spice(id: string, overrides: Partial<SpiceItem> = {}): SpiceItem {
  return {
    id,
    timestamp: '2026-03-01T10:00:00.000Z',
    role: 'user',
    content: [{ type: 'text', text: `message ${id}` }],
    response_stats: null,
    ...overrides,
  };
}

describe('SpiceWindow', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows roles, text, thinking, images, unsupported parts and response stats', () => {
    render(
      <SpiceWindow
        spice={[
          spice('a', { content: [{ type: 'text', text: 'Fix the login\n  please' }] }),
          spice('b', {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'The form posts twice.' },
              { type: 'image_url', image_url: '/user_asset/event/e1/1' },
              { type: 'tool_call', text: 'bash()' },
            ],
            response_stats: {
              input_tokens: 120,
              cached_tokens: 10,
              output_tokens: 56,
              reasoning_tokens: 7,
              time: 3.24,
              cost: 153,
            },
          }),
        ]}
      />,
    );
    expect(screen.getByRole('region', { name: 'Spice Messages' })).toBeTruthy();
    const user = screen.getByRole('article', { name: 'User message' });
    expect(within(user).getByText('User')).toBeTruthy();
    // Text keeps its line breaks and indentation (shown pre-wrapped).
    expect(
      within(user).getByText((_, el) => el?.tagName === 'P' && el.textContent === 'Fix the login\n  please'),
    ).toBeTruthy();

    const assistant = screen.getByRole('article', { name: 'Assistant message' });
    const thinking = within(assistant).getByRole('note', { name: 'Thinking' });
    expect(thinking.textContent).toContain('The form posts twice.');
    expect(within(assistant).getByRole('img', { name: 'Image' }).getAttribute('src')).toBe(
      '/user_asset/event/e1/1',
    );
    expect(within(assistant).getByText('Unsupported Message Type')).toBeTruthy();
    expect(within(assistant).queryByText('bash()')).toBeNull();
    const stats = within(assistant).getByTestId('spice-stats').textContent;
    expect(stats).toBe('Tokens: 120 input, 10 cached, 56 output, 7 reasoning · 3.2 s · $1.53');
    expect(within(user).queryByTestId('spice-stats')).toBeNull();
  });

  it('says so when there are no messages', () => {
    render(<SpiceWindow spice={[]} />);
    expect(screen.getByText('No spice messages yet.')).toBeTruthy();
  });

  it('scrolls the third message into view when more than two exist, once', () => {
    const scrolledTo: Element[] = [];
    vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolledTo.push(this);
    });
    const items = ['a', 'b', 'c', 'd'].map((id) => spice(id));
    const view = render(<SpiceWindow spice={items} />);
    expect(scrolledTo).toHaveLength(1);
    expect(scrolledTo[0]?.textContent).toContain('message c');
    view.rerender(<SpiceWindow spice={[...items, spice('e')]} />);
    expect(scrolledTo).toHaveLength(1);
  });

  it('does not scroll with two messages or fewer', () => {
    const scroll = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(() => undefined);
    render(<SpiceWindow spice={[spice('a'), spice('b')]} />);
    expect(scroll).not.toHaveBeenCalled();
  });
});
