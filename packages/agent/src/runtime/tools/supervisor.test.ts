import { describe, expect, it } from 'vitest';
import { findTool, REVIEW_PURPOSE, toolsFor } from './index.js';
import { describeSubAgent } from './supervisor.js';

const SUPERVISOR_ONLY = ['start_sub_agent', 'message_sub_agent', 'sub_agent_status', 'wait_for_sub_agents'];
const names = (purpose: string | null, agentType: string) => toolsFor(purpose, agentType).map((t) => t.name);

describe('supervisor tools', () => {
  it('belong to supervisors only, on top of every editor tool', () => {
    const editor = names(null, 'editor');
    const supervisor = names(null, 'supervisor');
    for (const name of SUPERVISOR_ONLY) {
      expect(editor).not.toContain(name);
      expect(names(REVIEW_PURPOSE, 'editor')).not.toContain(name);
      expect(supervisor).toContain(name);
    }
    expect(supervisor).toEqual(expect.arrayContaining(editor));
    // A call to one by an editor is an unknown tool for the loop.
    expect(findTool('start_sub_agent', null, 'editor')).toBeUndefined();
    expect(findTool('start_sub_agent', null, 'supervisor')?.name).toBe('start_sub_agent');
  });

  it('describes a sub-agent with its pull requests and last report', () => {
    expect(
      describeSubAgent({
        id: 'a1',
        number: 4,
        title: 'Docs',
        repository: 'acme/webapp',
        status: 'paused',
        pullRequests: ['http://host/acme/webapp/pull/9'],
        summary: 'Added docs.',
      }),
    ).toBe(
      '- a1 #4 "Docs" in acme/webapp: paused\n  pull request: http://host/acme/webapp/pull/9\n  last report: Added docs.',
    );
  });

  it('checks input: a repository name and a task are required, waits are bounded', () => {
    const start = findTool('start_sub_agent', null, 'supervisor')!;
    expect(start.input.safeParse({ repository: 'acme/webapp' }).success).toBe(false);
    expect(start.input.safeParse({ repository: 'acme/webapp', task: 'Do it' }).success).toBe(true);
    const wait = findTool('wait_for_sub_agents', null, 'supervisor')!;
    expect(wait.input.parse({})).toEqual({ seconds: 3600 });
    expect(wait.input.safeParse({ seconds: 3601 }).success).toBe(false);
    const message = findTool('message_sub_agent', null, 'supervisor')!;
    expect(message.input.safeParse({ sub_agent_id: 'not-a-uuid', message: 'hi' }).success).toBe(false);
  });
});
