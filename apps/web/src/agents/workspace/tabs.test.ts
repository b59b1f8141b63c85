import { describe, expect, it } from 'vitest';
import { closeTab, EMPTY_LAYOUT, loadLayout, openTab, saveLayout, tabTitle } from './tabs';

describe('workspace tabs', () => {
  it('opens a tab once and selects it', () => {
    let layout = openTab(EMPTY_LAYOUT, { kind: 'shell', pid: 7 });
    layout = openTab(layout, { kind: 'summary' });
    layout = openTab(layout, { kind: 'shell', pid: 7 });
    expect(layout.tabs.map(tabTitle)).toEqual(['Shell #7', 'Summary']);
    expect(layout.active).toBe('shell:7');
  });

  it('closing the selected tab selects its neighbour, then the chat', () => {
    let layout = openTab(openTab(EMPTY_LAYOUT, { kind: 'shell', pid: 1 }), { kind: 'shell', pid: 2 });
    layout = closeTab(layout, 'shell:2');
    expect(layout).toEqual({ tabs: [{ kind: 'shell', pid: 1 }], active: 'shell:1' });
    expect(closeTab(layout, 'shell:1')).toEqual({ tabs: [], active: null });
  });

  it('saves the layout per agent and ignores what it cannot read', () => {
    saveLayout('a1', openTab(EMPTY_LAYOUT, { kind: 'shell', pid: 3 }));
    expect(loadLayout('a1')).toEqual({ tabs: [{ kind: 'shell', pid: 3 }], active: 'shell:3' });
    expect(loadLayout('other')).toEqual(EMPTY_LAYOUT);
    localStorage.setItem('agentLayout:bad', '{nope');
    expect(loadLayout('bad')).toEqual(EMPTY_LAYOUT);
  });
});
