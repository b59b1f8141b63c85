import type { AgentRunner } from '@tandem/agent';
import { conversationResponseSchema, createAgentResponseSchema } from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADD_SUBTRACT_EDIT, writeScriptFile } from '../testing/agent-harness.js';
import { signInAda } from '../testing/scripted-agents.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

/**
 * The review model reviews each push; its findings reach the agent, which pushes a fix that the
 * next review passes. Both models are scripted: the reviewer's scripts match on the diff it gets.
 */
const edit = (path: string, oldString: string, newString: string) => ({
  tool_calls: [{ name: 'edit_file', args: { path, old_string: oldString, new_string: newString } }],
});
const scriptFile = writeScriptFile([
  // The reviewer sees only what each push added: the second push adds the test.
  { match: "test\\('subtract'", steps: [{ text: 'LGTM' }] },
  {
    match: 'Review this change',
    steps: [{ text: 'src/math.js: subtract has no test in test/math.test.js.' }],
  },
  {
    match: 'subtract with review',
    steps: [
      { tool_calls: [{ name: 'edit_file', args: ADD_SUBTRACT_EDIT }] },
      { tool_calls: [{ name: 'commit_and_push', args: { message: 'Add subtract' } }] },
      edit(
        'test/math.test.js',
        "test('multiply', () => {",
        "test('subtract', () => {\n  assert.equal(subtract(5, 3), 2);\n});\n\ntest('multiply', () => {",
      ),
      { tool_calls: [{ name: 'commit_and_push', args: { message: 'Address auto-review feedback' } }] },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'Added subtract with a test.' } }] },
    ],
  },
]);

describe('auto-review after a push', () => {
  const testApp = useTestApp('pglite', {
    codeHost: true,
    agents: { models: { scriptedModelFile: scriptFile } },
  });
  let app: TestApp;
  let ada: TestUser;

  beforeAll(async () => {
    app = testApp();
    ada = await signInAda(app);
  });

  it('turns findings into AutoReviewEvents the agent addresses', async () => {
    const headers = { authorization: `Bearer ${ada.token}` };
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers,
      payload: { body: 'Add subtract with review', model: 'scripted', review_model: 'scripted' },
    });
    expect(res.statusCode).toBe(200);
    const { agent_id } = createAgentResponseSchema.parse(res.json());
    await (app.runner as AgentRunner).idle(agent_id);

    const { conversation } = conversationResponseSchema.parse(
      (await app.server.inject({ url: `/api/agent/conversation?trajectory_id=${agent_id}`, headers })).json(),
    );
    expect(conversation.filter((i) => i.action_type === 'ErrorEvent')).toEqual([]);
    const kinds = conversation.map((i) => (i.item_type === 'action' ? i.action_type : i.item_type));
    expect(kinds).toEqual([
      'message',
      'edit',
      'commit',
      'AutoReviewEvent',
      'edit',
      'commit',
      'AutoReviewEvent',
      'TaskCompleteEvent',
    ]);
    const reviews = conversation.filter((i) => i.action_type === 'AutoReviewEvent');
    expect(reviews[0]).toMatchObject({
      auto_review_status: 'completed',
      auto_review: 'src/math.js: subtract has no test in test/math.test.js.',
    });
    expect(reviews[1]).toMatchObject({ auto_review_status: 'completed', auto_review: 'LGTM' });
    const commits = conversation.filter((i) => i.item_type === 'commit');
    expect(reviews.map((r) => (r as { reviewed_sha?: string }).reviewed_sha)).toEqual(
      commits.map((c) => c.commit_sha),
    );

    const meta = (
      await app.server.inject({ url: `/api/agent/metadata?trajectory_id=${agent_id}`, headers })
    ).json() as { review_model: string | null };
    expect(meta.review_model).toBe('scripted');
  });
});
