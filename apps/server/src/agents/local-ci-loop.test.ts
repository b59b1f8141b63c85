import { agents, conversationItems } from '@tandem/db';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeScriptFile } from '../testing/agent-harness.js';
import { connectCodeHost, settle as settleAll } from '../testing/code-host-product.js';
import { createScriptedAgent } from '../testing/scripted-agents.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

const WRONG = 'export function subtract(a, b) {\n  return a + b;\n}\n\nexport function multiply(a, b) {';
const TEST = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subtract } from '../src/math.js';

test('subtract takes away', () => {
  assert.equal(subtract(5, 3), 2);
});
`;

/**
 * The whole CI loop offline: an agent pushes a broken change, the code host's CI runs the tests in
 * the sandbox and reports the failure by webhook, auto-fix wakes the agent with the log's end, the
 * agent fixes and pushes, and CI turns green; the commit items show both runs.
 */
/** A change that keeps failing: the first push and each auto-fix attempt leave the test red. */
const stillWrong = (n: number) => ({
  tool_calls: [
    {
      name: 'edit_file',
      args: {
        path: 'src/math.js',
        old_string: n === 0 ? 'export function multiply(a, b) {' : `// attempt ${n - 1}\n`,
        new_string: n === 0 ? `// attempt 0\n${WRONG}` : `// attempt ${n}\n`,
      },
    },
  ],
});
const pushAgain = (n: number) => [
  stillWrong(n),
  { tool_calls: [{ name: 'commit_and_push', args: { message: `Try ${n}` } }] },
  { tool_calls: [{ name: 'task_complete', args: { summary: `Tried ${n}.` } }] },
];

const scriptFile = writeScriptFile([
  {
    match: 'never green',
    steps: [
      {
        tool_calls: [
          { name: 'edit_file', args: { path: 'test/subtract.test.js', old_string: '', new_string: TEST } },
        ],
      },
      ...pushAgain(0),
      ...pushAgain(1),
      ...pushAgain(2),
    ],
  },
  {
    match: 'subtract',
    steps: [
      {
        tool_calls: [
          {
            name: 'edit_file',
            args: { path: 'src/math.js', old_string: 'export function multiply(a, b) {', new_string: WRONG },
          },
        ],
      },
      {
        tool_calls: [
          { name: 'edit_file', args: { path: 'test/subtract.test.js', old_string: '', new_string: TEST } },
        ],
      },
      { tool_calls: [{ name: 'commit_and_push', args: { message: 'Add subtract' } }] },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'Added subtract.' } }] },
      // Woken by auto-fix with the failing log.
      {
        tool_calls: [
          {
            name: 'edit_file',
            args: {
              path: 'src/math.js',
              old_string: 'export function subtract(a, b) {\n  return a + b;',
              new_string: 'export function subtract(a, b) {\n  return a - b;',
            },
          },
        ],
      },
      { tool_calls: [{ name: 'commit_and_push', args: { message: 'Fix subtract' } }] },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'Fixed subtract; CI passes.' } }] },
    ],
  },
]);

describe('the local CI loop', () => {
  const testApp = useTestApp('pglite', {
    codeHost: true,
    codeHostCi: true,
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
    await connectCodeHost(app, { users: { ada: 1 }, repositories: { 'acme/webapp': 200 } });
  });

  /** CI runs, their webhooks, the product's handling and the agent runs they wake, until quiet. */
  async function settle() {
    for (let round = 0; round < 4; round++) {
      await app.codeHost!.ciIdle();
      await settleAll(app);
    }
  }

  /** Creates an agent on the scripted model; its id. */
  const create = (body: string) => createScriptedAgent(app, ada, body);

  /** The agent's items in order: what its feed shows. */
  const itemsOf = (agentId: string) =>
    app.database.db
      .select({
        itemType: conversationItems.itemType,
        actionType: conversationItems.actionType,
        data: conversationItems.data,
      })
      .from(conversationItems)
      .where(eq(conversationItems.agentId, agentId))
      .orderBy(asc(conversationItems.timestamp));

  it('fails, wakes the agent with the log, and goes green after its fix', async () => {
    const agentId = await create('Add a subtract function');
    await settle();

    const items = await itemsOf(agentId);
    const commits = items.filter((i) => i.itemType === 'commit');
    expect(commits.map((c) => c.data.commit_message)).toEqual(['Add subtract', 'Fix subtract']);
    const statuses = commits.map((c) =>
      (c.data.workflows as { workflow_name: string; workflow_status: string }[]).map(
        (w) => `${w.workflow_name}:${w.workflow_status}`,
      ),
    );
    expect(statuses).toEqual([['CI:failure'], ['CI:success']]);

    const wake = items.find((i) => i.actionType === 'workflow_run');
    expect(String(wake?.data.message)).toContain('subtract takes away');
    const [agent] = await app.database.db.select().from(agents).where(eq(agents.id, agentId));
    expect(agent?.status).not.toBe('open');
  });

  it('stops after its attempts when CI stays red, and says so', async () => {
    const agentId = await create('This one is never green');
    await settle();
    await settle();

    const items = await itemsOf(agentId);
    const commits = items.filter((i) => i.itemType === 'commit');
    // The first push and one per auto-fix attempt; the third red run wakes nobody.
    expect(commits.map((c) => c.data.commit_message)).toEqual(['Try 0', 'Try 1', 'Try 2']);
    expect(
      commits.map((c) => (c.data.workflows as { workflow_status: string }[]).map((w) => w.workflow_status)),
    ).toEqual([['failure'], ['failure'], ['failure']]);
    expect(items.filter((i) => i.actionType === 'workflow_run')).toHaveLength(2);
    const stop = items.at(-1)!;
    expect(stop.actionType).toBe('ActivitySummaryEvent');
    expect(JSON.stringify(stop.data)).toContain(
      'auto-fix stopped after 2 attempts. Message the agent to continue.',
    );
  });
});
