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

  it('names file, log, diff, spice and preview tabs, and a reopened diff takes its new title', () => {
    let layout = openTab(EMPTY_LAYOUT, { kind: 'diff', sourceId: 's1', title: 'tandem-1' });
    layout = openTab(layout, { kind: 'file', repositoryName: 'acme/webapp', path: 'src/math.js', ref: null });
    layout = openTab(layout, { kind: 'log', logId: 'l1', path: '.tandem/format.sh' });
    layout = openTab(layout, { kind: 'spice' });
    layout = openTab(layout, { kind: 'preview', port: 5173 });
    layout = openTab(layout, { kind: 'diff', sourceId: 's1', title: '#4' });
    expect(layout.tabs.map(tabTitle)).toEqual(['#4', 'math.js', 'format.sh', 'Spice Messages', 'Port 5173']);
    expect(layout.active).toBe('diff:s1');
  });

  it('drops stored tabs it no longer understands and keeps the rest', () => {
    localStorage.setItem(
      'agentLayout:mixed',
      JSON.stringify({
        tabs: [
          { kind: 'preview-v0', port: 3000 },
          { kind: 'diff', sourceId: null, title: 'Diff' },
        ],
        active: 'diff:live',
      }),
    );
    expect(loadLayout('mixed')).toEqual({
      tabs: [{ kind: 'diff', sourceId: null, title: 'Diff' }],
      active: 'diff:live',
    });
  });
});
