import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { Layout } from './tabs';
import { WorkspaceTabs } from './WorkspaceTabs';

function Harness(props: { initial: Layout }) {
  const [layout, setLayout] = useState(props.initial);
  return (
    <>
      <output data-testid="tabs">{layout.tabs.map((t) => t.kind).join(',')}</output>
      <WorkspaceTabs
        agentId="a1"
        items={[]}
        spice={[]}
        entries={[]}
        servedPorts={[]}
        layout={layout}
        onLayout={setLayout}
      />
    </>
  );
}

const layout: Layout = { tabs: [{ kind: 'summary' }, { kind: 'spice' }], active: 'spice' };

describe('WorkspaceTabs', () => {
  it('keeps tabs free of nested controls: the active tab closes by a button beside them or Delete', () => {
    render(<Harness initial={layout} />);
    for (const tab of screen.getAllByRole('tab')) {
      expect(tab.querySelector('button, [tabindex]:not([tabindex="-1"]), a[href]')).toBeNull();
    }
    fireEvent.keyDown(screen.getAllByRole('tab')[0]!, { key: 'Delete' });
    expect(screen.getByTestId('tabs').textContent).toBe('spice');
    const close = screen.getByRole('button', { name: /^Close / });
    fireEvent.click(close);
    expect(screen.getByTestId('tabs').textContent).toBe('');
  });
});
