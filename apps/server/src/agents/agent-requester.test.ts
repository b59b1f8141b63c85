import type { EmbeddedRunner } from '@tandem/agent';
import { spiceMessages } from '@tandem/db';
import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADD_SUBTRACT_EDIT, writeScriptFile } from '../testing/agent-harness.js';
import { createScriptedAgent, signInAda } from '../testing/scripted-agents.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

const scriptFile = writeScriptFile([
  {
    match: 'subtract',
    steps: [
      { tool_calls: [{ name: 'edit_file', args: ADD_SUBTRACT_EDIT }] },
      { tool_calls: [{ name: 'commit_and_push', args: { message: 'Add subtract' } }] },
      { text: 'Pushed.' },
      // The second message: the step is the number of answers so far (docs/agent-tools.md).
      {
        tool_calls: [
          {
            name: 'edit_file',
            args: {
              path: 'src/math.js',
              old_string: 'export function subtract(a, b) {',
              new_string:
                'export function divide(a, b) {\n  return a / b;\n}\n\nexport function subtract(a, b) {',
            },
          },
        ],
      },
      { tool_calls: [{ name: 'commit_and_push', args: { message: 'Add divide' } }] },
      { text: 'Pushed again.' },
    ],
  },
]);

/**
 * Whom an agent works for is read with the agent at every step (run-agent.ts): the commit is
 * co-authored by them, and their Automatic PR Creation setting, changed between two messages,
 * is the one the next commit obeys.
 */
describe('the requester of an agent run', () => {
  const testApp = useTestApp('pglite', {
    codeHost: true,
    agents: { models: { scriptedModelFile: scriptFile } },
  });
  let app: TestApp;
  let ada: TestUser;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
  const toolResults = async (agentId: string) =>
    (
      await app.database.db
        .select({ content: spiceMessages.content })
        .from(spiceMessages)
        .where(and(eq(spiceMessages.agentId, agentId), eq(spiceMessages.role, 'tool')))
        .orderBy(asc(spiceMessages.timestamp))
    ).map((row) => JSON.stringify(row.content));
  const autoPr = async (on: boolean) => {
    const res = await app.server.inject({
      method: 'PATCH',
      url: '/api/settings/user',
      headers: as(ada),
      payload: { auto_create_pr: on },
    });
    expect(res.statusCode).toBe(200);
  };

  beforeAll(async () => {
    app = testApp();
    ada = await signInAda(app);
  });

  it("co-authors the commit and follows the user's Automatic PR Creation from message to message", async () => {
    await autoPr(false);
    const agent_id = await createScriptedAgent(app, ada, 'Add a subtract function');
    const runner = app.runner as EmbeddedRunner;
    await runner.idle(agent_id);
    const [, off] = await toolResults(agent_id);
    expect(off).toMatch(/Committed [0-9a-f]{7} and pushed/);
    expect(off).toContain('Automatic pull request creation is off');

    await autoPr(true);
    const sent = await app.server.inject({
      method: 'POST',
      url: `/api/agent/message?trajectory_id=${agent_id}`,
      headers: as(ada),
      payload: { message: 'Now add divide', images: [], comments: [] },
    });
    expect(sent.statusCode).toBe(200);
    await runner.idle(agent_id);
    const results = await toolResults(agent_id);
    expect(results).toHaveLength(4);
    expect(results[3]).toMatch(/Committed [0-9a-f]{7} and pushed/);
    expect(results[3]).not.toContain('Automatic pull request creation is off');

    // Both commits name her as co-author.
    const token = await app.codeHost!.issueInstallationToken(1000);
    const commits = (await fetch(`${app.codeHost!.apiUrl}/repos/acme/webapp/commits?sha=tandem-1`, {
      headers: { authorization: `token ${token}` },
    }).then((r) => r.json())) as { commit: { message: string } }[];
    const messages = commits.map((c) => c.commit.message);
    expect(messages.filter((m) => /Co-authored-by: ada </.test(m))).toHaveLength(2);
  });
});
