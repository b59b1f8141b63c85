import { describe, expect, it } from 'vitest';
import { agentPath, displayTitle, isWorking } from './agent-display';

describe('agent display', () => {
  it('is working while open or pending', () => {
    expect([isWorking('open'), isWorking('pending'), isWorking('paused'), isWorking(undefined)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('prefixes the title and builds the workspace path', () => {
    expect(displayTitle({ status: 'open', title: 'Fix it' })).toBe('▶ Fix it');
    expect(displayTitle({ status: 'paused', title: 'Fix it' })).toBe('⏸ Fix it');
    expect(agentPath({ id: 'a1', repo_name: 'acme/webapp' })).toBe('/gh/acme/webapp/agent/a1');
    expect(agentPath({ id: 'a1', repo_name: null })).toBe('/agents/a1');
  });
});
