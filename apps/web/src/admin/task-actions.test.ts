import type { AdminTask } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { actionsFor } from './TaskMonitorPage';

const agent = (status: string, archived = false): AdminTask => ({
  kind: 'agent',
  id: '00000000-0000-4000-8000-000000000001',
  status,
  title: 'Fix the build',
  installation: { id: 1, name: 'acme' },
  repository: 'acme/webapp',
  model: 'scripted',
  creator: 'bob',
  purpose: null,
  archived,
  created_at: '2026-11-26T09:00:00.000Z',
  last_active: '2026-11-26T09:00:00.000Z',
  cost: 0,
});
const webhook = (status: 'queued' | 'retrying' | 'failed'): AdminTask => ({
  kind: 'webhook',
  id: 'webhook:d-1',
  status,
  title: 'push',
  installation: null,
  attempts: 1,
  error: null,
  next_attempt_at: null,
  created_at: '2026-11-26T09:00:00.000Z',
});

describe('task monitor actions', () => {
  it('offers each action only where it applies', () => {
    expect(actionsFor(agent('open'))).toEqual(['stop', 'fail']);
    expect(actionsFor(agent('pending'))).toEqual(['stop', 'fail']);
    expect(actionsFor(agent('waiting'))).toEqual(['stop', 'fail']);
    expect(actionsFor(agent('paused'))).toEqual(['restart', 'fail']);
    expect(actionsFor(agent('failed'))).toEqual(['restart']);
    expect(actionsFor(agent('paused', true))).toEqual(['fail']);
    expect(actionsFor(webhook('retrying'))).toEqual(['fail']);
    expect(actionsFor(webhook('failed'))).toEqual(['restart']);
  });
});
