import type { EmbeddedRunner } from '@tandem/agent';
import { agentMetadataSchema } from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeScriptFile } from '../testing/agent-harness.js';
import { createScriptedAgent, signInAda } from '../testing/scripted-agents.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

const scriptFile = writeScriptFile([
  {
    match: 'subtract',
    steps: [
      // The pause leaves room for a user's rename to land first in the second test.
      { delay_ms: 1500, tool_calls: [{ name: 'set_title', args: { title: '  Add a subtract\nfunction ' } }] },
      { tool_calls: [{ name: 'set_title', args: { title: 'A second title' } }] },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'Named it.' } }] },
    ],
  },
]);

describe('an agent names itself with set_title', () => {
  const testApp = useTestApp('pglite', {
    codeHost: true,
    agents: { models: { scriptedModelFile: scriptFile } },
  });
  let app: TestApp;
  let ada: TestUser;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
  const create = () => createScriptedAgent(app, ada, 'Please add subtract');
  const title = async (agentId: string) =>
    agentMetadataSchema.parse(
      (
        await app.server.inject({ url: `/api/agent/metadata?trajectory_id=${agentId}`, headers: as(ada) })
      ).json(),
    ).title;

  beforeAll(async () => {
    app = testApp();
    ada = await signInAda(app);
  });

  it("replaces 'New Chat' once, on one line", async () => {
    const agentId = await create();
    expect(await title(agentId)).toBe('New Chat');
    await (app.runner as EmbeddedRunner).idle(agentId);
    expect(await title(agentId)).toBe('Add a subtract function');
  });

  it('keeps a title the user chose', async () => {
    const agentId = await create();
    const renamed = await app.server.inject({
      method: 'POST',
      url: '/api/agent/update-title',
      headers: as(ada),
      payload: { trajectory_id: agentId, title: 'My own title' },
    });
    expect(renamed.statusCode).toBe(200);
    await (app.runner as EmbeddedRunner).idle(agentId);
    expect(await title(agentId)).toBe('My own title');
  });
});
