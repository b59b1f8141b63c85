import type { AgentRunner } from '@tandem/agent';
import { spiceMessages } from '@tandem/db';
import { conversationResponseSchema } from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeScriptFile } from '../testing/agent-harness.js';
import { createScriptedAgent, signInAda } from '../testing/scripted-agents.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

/** Repository secrets reach the sandbox as environment variables and never leave it in clear. */
const SECRET = 'sk-live-7f3a9c2e5b1d';
const scriptFile = writeScriptFile([
  {
    match: 'secret:',
    steps: [
      { tool_calls: [{ name: 'run_command', args: { command: 'echo "token=$DEPLOY_TOKEN"' } }] },
      {
        tool_calls: [
          {
            name: 'run_command',
            args: { command: 'printf "%s" "$DEPLOY_TOKEN" > leaked.txt && cat leaked.txt' },
          },
        ],
      },
      { tool_calls: [{ name: 'view_files', args: { files: [{ path: 'leaked.txt' }] } }] },
      { tool_calls: [{ name: 'task_complete', args: { summary: `The token is ${SECRET}` } }] },
    ],
  },
]);

describe('repository secrets in an agent run', () => {
  const testApp = useTestApp('pglite', {
    codeHost: true,
    agents: { models: { scriptedModelFile: scriptFile } },
  });
  let app: TestApp;
  let ada: TestUser;
  const headers = () => ({ authorization: `Bearer ${ada.token}` });

  beforeAll(async () => {
    app = testApp();
    ada = await signInAda(app);
  });

  it('are set in the sandbox and scrubbed from the feed and from what the model reads', async () => {
    const added = await app.server.inject({
      method: 'POST',
      url: '/api/secrets/acme/webapp/add-secret',
      headers: headers(),
      payload: { key: 'deploy_token', value: SECRET },
    });
    expect(added.statusCode).toBe(200);
    const agent_id = await createScriptedAgent(app, ada, 'secret: use the token');
    await (app.runner as AgentRunner).idle(agent_id);

    const body = (
      await app.server.inject({
        url: `/api/agent/conversation?trajectory_id=${agent_id}`,
        headers: headers(),
      })
    ).body;
    const { conversation } = conversationResponseSchema.parse(JSON.parse(body));
    expect(conversation.filter((i) => i.action_type === 'ErrorEvent')).toEqual([]);
    expect(conversation.some((i) => i.action_type === 'TaskCompleteEvent')).toBe(true);
    // The variable was set (something was masked), and the value appears nowhere.
    expect(body).toContain('token=[REDACTED]');
    expect(body).not.toContain(SECRET);
    const spice = await app.database.db.select().from(spiceMessages);
    expect(spice.length).toBeGreaterThan(0);
    expect(JSON.stringify(spice)).not.toContain(SECRET);
  });
});
