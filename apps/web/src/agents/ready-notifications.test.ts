import { describe, expect, it } from 'vitest';
import { agentsThatStopped, readyMessage } from './ready-notifications';

const agent = (id: string, repo: string | null = 'acme/webapp') => ({
  id,
  title: `Agent ${id}`,
  repo_name: repo,
});

describe('ready notifications', () => {
  it('finds the agents that left the running list', () => {
    expect(agentsThatStopped([agent('a'), agent('b')], [agent('b'), agent('c')]).map((a) => a.id)).toEqual([
      'a',
    ]);
    expect(agentsThatStopped([], [agent('a')])).toEqual([]);
  });

  it('names the repository', () => {
    expect(readyMessage(agent('a'))).toBe('Agent in acme/webapp ready for feedback');
  });
});
