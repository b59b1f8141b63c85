import { WORKFLOW_REFUSAL_MESSAGE, type EmbeddedRunner } from '@tandem/agent';
import { conversationResponseSchema } from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeScriptFile } from '../testing/agent-harness.js';
import { createScriptedAgent } from '../testing/scripted-agents.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

/** The agent changes the seeded CI workflow and pushes: the code host refuses as GitHub does. */
const scriptFile = writeScriptFile([
  {
    match: 'workflow',
    steps: [
      {
        tool_calls: [
          {
            name: 'edit_file',
            args: {
              path: '.github/workflows/ci.yml',
              old_string: 'run: npm test',
              new_string: 'run: npm test -- --test-reporter=spec',
            },
          },
        ],
      },
      { tool_calls: [{ name: 'commit_and_push', args: { message: 'Verbose test output in CI' } }] },
      {
        tool_calls: [{ name: 'task_complete', args: { summary: 'Asked a person to change the workflow.' } }],
      },
    ],
  },
]);

describe("an agent's push that changes workflows", () => {
  const testApp = useTestApp('pglite', {
    codeHost: true,
    agents: { models: { scriptedModelFile: scriptFile } },
  });
  let app: TestApp;
  let ada: TestUser;

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({
      username: 'ada',
      admin: true,
      installations: [{ id: 1000, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
  });

  it('is refused by the code host, and the agent tells the person why', async () => {
    const headers = { authorization: `Bearer ${ada.token}` };
    const agent_id = await createScriptedAgent(app, ada, 'Make the workflow print every test');
    await (app.runner as EmbeddedRunner).idle(agent_id);

    const { conversation } = conversationResponseSchema.parse(
      (await app.server.inject({ url: `/api/agent/conversation?trajectory_id=${agent_id}`, headers })).json(),
    );
    const errors = conversation.filter((i) => i.action_type === 'ErrorEvent').map((i) => i.exception);
    expect(errors).toEqual([WORKFLOW_REFUSAL_MESSAGE]);
    expect(conversation.some((i) => i.item_type === 'commit')).toBe(false);
    expect(conversation.at(-1)).toMatchObject({ action_type: 'TaskCompleteEvent' });

    // Nothing reached the code host: no branch of the agent's exists there.
    const token = await app.codeHost!.issueInstallationToken(1000);
    const branches = (await (
      await fetch(`${app.codeHost!.apiUrl}/repos/acme/webapp/branches`, {
        headers: { authorization: `token ${token}` },
      })
    ).json()) as { name: string }[];
    expect(branches.map((b) => b.name)).toEqual(['main']);
  });
});
