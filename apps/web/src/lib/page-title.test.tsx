import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { usePageTitle, useTitleCount } from './page-title';

function Title({ page, count }: { page?: string; count?: string }) {
  usePageTitle(page);
  useTitleCount(count);
  return null;
}

describe('tab title', () => {
  it('combines the unread count and the page name', () => {
    const view = render(<Title />);
    expect(document.title).toBe('Tandem');
    view.rerender(<Title page="Pricing ·" />);
    expect(document.title).toBe('Pricing · Tandem');
    view.rerender(<Title page="Pricing ·" count="(3)" />);
    expect(document.title).toBe('(3) Pricing · Tandem');
    view.unmount();
  });
});

describe('nested titles', () => {
  it('keeps a child page name when its layout renders too, and drops it on unmount', () => {
    function Layout({ children }: { children: React.ReactNode }) {
      useTitleCount(undefined);
      return <>{children}</>;
    }
    const view = render(
      <Layout>
        <Title page="Team ·" />
      </Layout>,
    );
    expect(document.title).toBe('Team · Tandem');
    view.rerender(<Layout>{null}</Layout>);
    expect(document.title).toBe('Tandem');
  });
});
