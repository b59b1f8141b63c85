import { testDatabaseKinds } from '@tandem/db/testing';
import { agents } from '@tandem/db';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { until, writeScriptFile } from '../testing/agent-harness.js';
import { createScriptedAgent, signInAda } from '../testing/scripted-agents.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

const scriptFile = writeScriptFile([
  {
    match: 'steps:',
    steps: [
      { tool_calls: [{ name: 'run_command', args: { command: 'echo one' } }] },
      { tool_calls: [{ name: 'run_command', args: { command: 'echo two' } }] },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'Done.' } }] },
    ],
  },
]);

/**
 * What one agent step costs the database (issue 15): between a tool's stored result and the next
 * model request, at most 5 statements, none of which reads the whole conversation again.
 */
describe.each(testDatabaseKinds())('queries per agent step on %s', (kind) => {
  const log: { query: string; params: unknown[] }[] = [];
  let testRead = false;
  const testApp = useTestApp(kind, {
    codeHost: true,
    agents: { models: { scriptedModelFile: scriptFile } },
    logQuery: (query, params) => {
      if (!testRead) log.push({ query, params });
    },
  });
  let app: TestApp;
  let ada: TestUser;

  beforeAll(async () => {
    app = testApp();
    ada = await signInAda(app);
  });

  it('sends at most 5 statements between a tool result and the next model request', async () => {
    const agentId = await createScriptedAgent(app, ada, 'steps: run two commands');
    await until('the agent to finish', async () => {
      // The test's own polling read is not one of the step's statements; under load it used to land
      // between a tool result and the next model request. Drizzle logs a query synchronously when
      // it starts executing, which `.then` does at once.
      testRead = true;
      const read = app.database.db
        .select()
        .from(agents)
        .where(eq(agents.id, agentId))
        .then((rows) => rows);
      testRead = false;
      const [row] = await read;
      return row?.status === 'paused' ? true : undefined;
    });

    // A tool result is stored as a spice message with the role 'tool'; the model's answer is
    // charged next, so the statements in between are what the step cost before the request.
    const isToolResult = (e: (typeof log)[number]) =>
      /^insert into "spice_messages"/i.test(e.query) &&
      e.params.includes('tool') &&
      e.params.includes(agentId);
    const isCharge = (e: (typeof log)[number]) =>
      /insert into "credit_transactions"|update "installations" set "credit_balance"/i.test(e.query);
    // A read of the model's context. (The step's row asks whether user messages wait to be fed,
    // which looks at the fed ones' ids only.)
    const readsContext = (q: string) =>
      /from "spice_messages"/i.test(q) && !/action_uuid"? is not null/i.test(q);
    const windows: string[][] = [];
    for (let i = 0; i < log.length; i++) {
      if (!isToolResult(log[i]!)) continue;
      const end = log.findIndex((e, j) => j > i && isCharge(e));
      if (end < 0) continue;
      windows.push(log.slice(i + 1, end).map((e) => e.query));
    }
    // Two commands, each followed by a model request (the second answers with task_complete).
    expect(windows).toHaveLength(2);
    if (process.env.SHOW_STEP_QUERIES) console.log(windows);
    for (const window of windows) {
      expect(window.length, window.join('\n')).toBeLessThanOrEqual(5);
      // The context is read from where the run left it, not from the start of the conversation.
      const spiceReads = window.filter(readsContext);
      expect(spiceReads, window.join('\n')).toHaveLength(1);
      expect(spiceReads[0]).toMatch(/"timestamp" > \$/i);
      // No user message was sent during the run: the step's row said so, and none were read.
      expect(
        window.filter((q) => /^select "action_uuid", "data"/i.test(q)),
        window.join('\n'),
      ).toEqual([]);
    }

    // The run stored the model's answers itself (three, each with a tool call), so it runs their
    // tool calls without reading them back. An answer is stored by its charge's statement.
    // Its values travel as JSON rows, one per answer recorded together (answer-record.ts).
    const carries = (e: (typeof log)[number], value: string) =>
      e.params.some((p) => typeof p === 'string' && p.startsWith('[{') && p.includes(JSON.stringify(value)));
    const isAnswer = (e: (typeof log)[number]) =>
      isCharge(e) &&
      /insert into "spice_messages"/i.test(e.query) &&
      carries(e, 'assistant') &&
      carries(e, agentId);
    const answered: string[][] = [];
    for (let i = 0; i < log.length; i++) {
      if (!isAnswer(log[i]!)) continue;
      const end = log.findIndex((e, j) => j > i && isToolResult(e));
      if (end >= 0) answered.push(log.slice(i + 1, end).map((e) => e.query));
    }
    expect(answered).toHaveLength(3);
    // No answer is stored apart from its charge (answer-record.ts): one statement, not three.
    expect(
      log.filter(
        (e) =>
          /^insert into "spice_messages"/i.test(e.query) &&
          e.params.includes('assistant') &&
          e.params.includes(agentId),
      ),
    ).toEqual([]);
    for (const window of answered) expect(window.filter(readsContext), window.join('\n')).toEqual([]);
  });
});
