import type { ConversationItem } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { feedEntries, mergeItems, shellTranscript, unresolvedPending, visibleWorkflows } from './feed-model';

let clock = 0;
const item = (over: Partial<ConversationItem> & Record<string, unknown>): ConversationItem => ({
  item_type: 'action',
  action_uuid: `a${++clock}`,
  pid: null,
  timestamp: `2026-11-23T10:00:${String(clock).padStart(2, '0')}.000000Z`,
  action_type: null,
  user_id: null,
  ...over,
});

describe('the feed model', () => {
  it('merges pages without duplicates, newest copy winning, sorted by time', () => {
    const a = item({ item_type: 'message', message: 'hi' });
    const b = item({ item_type: 'shell', pid: 7, active: true });
    const bUpdated = { ...b, active: false };
    const merged = mergeItems([b, a], [bUpdated]);
    expect(merged.map((i) => i.action_uuid)).toEqual([a.action_uuid, b.action_uuid]);
    expect(merged[1]).toMatchObject({ active: false });
  });

  it('drops pending messages once their action id arrives', () => {
    const arrived = item({ item_type: 'message', action_uuid: 'evt-1' });
    const pending = [
      { event_uuid: 'evt-1', message: 'one', image_count: 0 },
      { event_uuid: 'evt-2', message: 'two', image_count: 0 },
      { event_uuid: null, message: 'sending', image_count: 0 },
    ];
    expect(unresolvedPending(pending, [arrived]).map((p) => p.message)).toEqual(['two', 'sending']);
  });

  it('groups shell messages under their shell and ends it at shutdown', () => {
    const shell = item({ item_type: 'shell', pid: 42, action_uuid: 'sh' });
    const out = item({
      item_type: 'shell_message',
      pid: 42,
      action_uuid: 'sh',
      message_type: 'stdout',
      message: 'ok',
    });
    const other = item({ item_type: 'shell', pid: 43, action_uuid: 'sh2' });
    const exit = item({ item_type: 'shell_message', pid: 42, action_uuid: 'sh', message_type: 'shutdown' });
    const entries = feedEntries([shell, out, other, exit]);
    expect(entries.map((e) => e.kind)).toEqual(['shell', 'shell']);
    expect(entries[0]).toMatchObject({ active: false });
    expect(entries[1]).toMatchObject({ active: true });
    expect(entries[0]!.kind === 'shell' && entries[0]!.messages.length).toBe(2);
  });

  it('a wake event deactivates every shell; a task complete right before a shutdown is hidden', () => {
    const shell = item({ item_type: 'shell', pid: 1, action_uuid: 's' });
    const wake = item({ action_type: 'WakeEvent' });
    const done = item({ action_type: 'TaskCompleteEvent' });
    const shutdown = item({ action_type: 'ShutdownEvent' });
    const entries = feedEntries([shell, wake, done, shutdown]);
    expect(entries[0]).toMatchObject({ kind: 'shell', active: false });
    expect(entries.map((e) => (e.kind === 'item' ? e.item.action_type : 'shell'))).toEqual([
      'shell',
      'WakeEvent',
      'ShutdownEvent',
    ]);
  });
});

describe('commit workflows', () => {
  const commit = (timestamp: string) => ({
    item_type: 'commit',
    action_uuid: 'c1',
    pid: null,
    timestamp,
    action_type: null,
    user_id: null,
    workflows: [
      { workflow_name: 'CI', workflow_status: 'in_progress' },
      { workflow_name: 'Lint', workflow_status: 'success' },
      { workflow_name: 'Deploy', workflow_status: 'failure' },
    ],
  });
  const now = Date.parse('2026-11-23T12:00:00Z');

  it('shows every status for 30 minutes, then only success and failure', () => {
    expect(visibleWorkflows(commit('2026-11-23T11:31:00Z'), now)).toHaveLength(3);
    expect(visibleWorkflows(commit('2026-11-23T11:29:00Z'), now).map((w) => w.workflow_name)).toEqual([
      'Lint',
      'Deploy',
    ]);
  });
});

describe('shell transcript', () => {
  const msg = (message_type: string, message: string) => ({
    item_type: 'shell_message',
    action_uuid: 's1',
    pid: 7,
    timestamp: '2026-11-23T12:00:00Z',
    action_type: null,
    user_id: null,
    message_type,
    message,
  });
  const shell = { ...msg('shell', ''), item_type: 'shell', command: 'npm test' };

  it('leaves out the opening command, marks later input and puts the exit on its own line', () => {
    expect(
      shellTranscript(shell, [
        msg('stdin', 'npm test'),
        msg('stdout', 'ok 1\nok 2'),
        msg('stdin', 'y'),
        msg('stdout', 'done'),
        msg('shutdown', 'Process exited with code 0'),
      ]),
    ).toBe('ok 1\nok 2\n$ y\ndone\nProcess exited with code 0\n');
  });
});
