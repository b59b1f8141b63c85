import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, type AgentRunner } from '@tandem/agent';
import { agents, agentSources, conversationItems } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADD_SUBTRACT_EDIT, until, writeScriptFile } from '../testing/agent-harness.js';
import { connectCodeHost } from '../testing/code-host-product.js';
import { createScriptedAgent, signInAda } from '../testing/scripted-agents.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

/** The agent opens a pull request; after a conflicting push to main it merges main and pushes. */
const scriptFile = writeScriptFile([
  {
    match: 'subtract',
    steps: [
      { tool_calls: [{ name: 'edit_file', args: ADD_SUBTRACT_EDIT }] },
      { tool_calls: [{ name: 'commit_and_push', args: { message: 'Add subtract' } }] },
      { tool_calls: [{ name: 'open_pull_request', args: { title: 'Add subtract', body: '' } }] },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'Opened a pull request.' } }] },
      // Woken by the conflict notice.
      { tool_calls: [{ name: 'git_fetch', args: {} }] },
      {
        tool_calls: [{ name: 'run_command', args: { command: 'git merge --no-commit -X ours origin/main' } }],
      },
      { tool_calls: [{ name: 'commit_and_push', args: { message: 'Merge main' } }] },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'Merged main; no conflicts left.' } }] },
    ],
  },
]);

describe.each(testDatabaseKinds())('merge conflicts on %s', (kind) => {
  const testApp = useTestApp(kind, { codeHost: true, agents: { models: { scriptedModelFile: scriptFile } } });
  let app: TestApp;
  let ada: TestUser;

  beforeAll(async () => {
    app = testApp();
    ada = await signInAda(app);
    await connectCodeHost(app, { users: { ada: 1 }, repositories: { 'acme/webapp': 200 } });
  });

  /** Someone else changes the lines the agent changed, on main. */
  async function pushConflictToMain(): Promise<void> {
    const auth = { token: await app.codeHost!.issueInstallationToken(1000) };
    const dir = mkdtempSync(join(tmpdir(), 'tandem-conflict-'));
    try {
      const url = `${app.codeHost!.url}/acme/webapp.git`;
      expect((await git(dir, ['clone', '--quiet', url, 'repo'], { auth })).exitCode).toBe(0);
      const repo = join(dir, 'repo');
      const math = join(repo, 'src/math.js');
      writeFileSync(
        math,
        readFileSync(math, 'utf8').replace(
          'export function multiply(a, b) {',
          'export function divide(a, b) {\n  return a / b;\n}\n\nexport function multiply(a, b) {',
        ),
      );
      const id = ['-c', 'user.name=Someone', '-c', 'user.email=someone@example.com'];
      expect((await git(repo, [...id, 'commit', '--quiet', '-am', 'Add divide'])).exitCode).toBe(0);
      expect((await git(repo, ['push', '--quiet', 'origin', 'HEAD:main'], { auth })).exitCode).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const mergeable = async (number: number) => {
    const auth = await app.codeHost!.issueInstallationToken(1000);
    const res = await fetch(`${app.codeHost!.apiUrl}/repos/acme/webapp/pulls/${number}`, {
      headers: { authorization: `token ${auth}` },
    });
    return ((await res.json()) as { mergeable: boolean | null }).mergeable;
  };

  it('wakes the agent when main moves under its pull request, and it merges main and pushes', async () => {
    const agentId = await createScriptedAgent(app, ada, 'Add a subtract function');
    const runner = app.runner as AgentRunner;
    const stopped = async () => {
      await app.codeHost!.webhooksIdle();
      await app.webhooks.idle();
      await runner.idle(agentId);
      return until(
        'the agent to stop',
        async () => {
          const [row] = await app.database.db.select().from(agents).where(eq(agents.id, agentId));
          return row?.status === 'paused' ? true : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 50 },
      );
    };
    await stopped();
    const [source] = await app.database.db
      .select({ number: agentSources.number })
      .from(agentSources)
      .where(and(eq(agentSources.agentId, agentId), eq(agentSources.type, 'branch')));
    const number = source!.number!;
    expect(await mergeable(number)).toBe(true);

    await pushConflictToMain();
    // The push's webhook is applied, the agent woken; its run merges main and pushes.
    await until('the conflict notice', async () => {
      await app.codeHost!.webhooksIdle();
      await app.webhooks.idle();
      const [notice] = await app.database.db
        .select({ data: conversationItems.data })
        .from(conversationItems)
        .where(
          and(eq(conversationItems.agentId, agentId), eq(conversationItems.actionType, 'merge_conflict')),
        );
      return notice;
    });
    await stopped();
    // The agent's merge push moved its own branch: no second notice for the same base commit.
    await app.codeHost!.webhooksIdle();
    await app.webhooks.idle();

    const items = await app.database.db
      .select({
        type: conversationItems.itemType,
        action: conversationItems.actionType,
        data: conversationItems.data,
      })
      .from(conversationItems)
      .where(eq(conversationItems.agentId, agentId))
      .orderBy(asc(conversationItems.timestamp));
    expect(items.filter((i) => i.action === 'ErrorEvent')).toEqual([]);
    const notices = items.filter((i) => i.action === 'merge_conflict');
    expect(notices).toHaveLength(1);
    expect(String(notices[0]!.data.message)).toContain(`pull request #${number} has merge conflicts`);
    expect(items.filter((i) => i.type === 'commit')).toHaveLength(2);
    expect(await mergeable(number)).toBe(true);
  });
});
