import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, type EmbeddedRunner } from '@tandem/agent';
import { repositories } from '@tandem/db';
import { eq } from 'drizzle-orm';
import { conversationResponseSchema } from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADD_SUBTRACT_EDIT, writeScriptFile } from '../testing/agent-harness.js';
import { createScriptedAgent } from '../testing/scripted-agents.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

/** A scripted model (docs/agent-tools.md): each model call answers with the next step. */
const scriptFile = writeScriptFile([
  {
    match: 'subtract',
    steps: [
      {
        text: 'Let me look at the library.',
        tool_calls: [{ name: 'view_files', args: { files: [{ path: 'src/math.js' }] } }],
      },
      { tool_calls: [{ name: 'edit_file', args: ADD_SUBTRACT_EDIT }] },
      { tool_calls: [{ name: 'run_command', args: { command: 'npm test' } }] },
      { tool_calls: [{ name: 'commit_and_push', args: { message: 'Add subtract' } }] },
      {
        tool_calls: [
          { name: 'open_pull_request', args: { title: 'Add subtract', body: 'Adds subtract(a, b).' } },
        ],
      },
      { tool_calls: [{ name: 'subscribe', args: { number: 1 } }] },
      {
        tool_calls: [
          { name: 'task_complete', args: { summary: 'Added subtract and opened a pull request.' } },
        ],
      },
    ],
  },
]);

describe('an agent run against the local code host', () => {
  const testApp = useTestApp('pglite', {
    codeHost: true,
    agents: { models: { scriptedModelFile: scriptFile } },
  });
  let app: TestApp;
  let ada: TestUser;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({
      username: 'ada',
      admin: true,
      installations: [{ id: 1000, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
  });

  /** Someone else's branch named like the agent's would be (another database's agent, a person). */
  async function pushForeignBranch(branch: string): Promise<string> {
    const token = await app.codeHost!.issueInstallationToken(1000);
    const dir = mkdtempSync(join(tmpdir(), 'tandem-foreign-'));
    const auth = { token };
    const url = `${app.codeHost!.url}/acme/webapp.git`;
    expect((await git(dir, ['clone', '--quiet', url, 'repo'], { auth })).exitCode).toBe(0);
    const repo = join(dir, 'repo');
    writeFileSync(join(repo, 'FOREIGN.md'), 'not the agent\n');
    const id = ['-c', 'user.name=Someone', '-c', 'user.email=someone@example.com'];
    expect((await git(repo, ['add', 'FOREIGN.md'])).exitCode).toBe(0);
    expect((await git(repo, [...id, 'commit', '--quiet', '-m', 'foreign work'])).exitCode).toBe(0);
    expect(
      (await git(repo, ['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`], { auth })).exitCode,
    ).toBe(0);
    const sha = (await git(repo, ['rev-parse', 'HEAD'])).stdout.trim();
    rmSync(dir, { recursive: true, force: true });
    return sha;
  }

  it('views, edits, runs the tests, commits, pushes and opens a pull request', async () => {
    // The code host already has a tandem-1 the agent did not make: the agent must leave it alone.
    const foreignSha = await pushForeignBranch('tandem-1');
    const agent_id = await createScriptedAgent(app, ada, 'Add a subtract function');
    await (app.runner as EmbeddedRunner).idle(agent_id);

    const page = conversationResponseSchema.parse(
      (
        await app.server.inject({
          url: `/api/agent/conversation?trajectory_id=${agent_id}`,
          headers: as(ada),
        })
      ).json(),
    );
    const kinds = page.conversation.map((item) =>
      item.item_type === 'action' ? item.action_type : item.item_type,
    );
    const errors = page.conversation.filter((i) => i.action_type === 'ErrorEvent');
    expect(errors).toEqual([]);
    expect(kinds.filter((k) => k !== 'shell_message')).toEqual([
      'message',
      'message',
      'view',
      'edit',
      'shell',
      'commit',
      'number_lifecycle',
      'ActivitySummaryEvent',
      'TaskCompleteEvent',
    ]);
    // The shell's messages (command, output, exit) sit between the shell and the commit.
    const between = kinds.slice(kinds.indexOf('shell') + 1, kinds.indexOf('commit'));
    expect(between.length).toBeGreaterThanOrEqual(3);
    expect(new Set(between)).toEqual(new Set(['shell_message']));
    const stamps = page.conversation.map((i) => i.timestamp);
    expect([...stamps].sort()).toEqual(stamps);
    const shellOutput = page.conversation
      .filter((i) => i.item_type === 'shell_message' && i.message_type === 'stdout')
      .map((i) => String(i.message))
      .join('');
    expect(shellOutput).toMatch(/pass 3/);
    const edit = page.conversation.find((i) => i.item_type === 'edit')!;
    expect(edit).toMatchObject({ lines_added: 4, lines_removed: 0 });
    const commit = page.conversation.find((i) => i.item_type === 'commit')!;
    expect(commit).toMatchObject({
      branch: 'tandem-1-2',
      repository_name: 'acme/webapp',
      commit_message: 'Add subtract',
    });

    // The pull request exists on the code host, from the agent's branch, with the commit.
    const token = await app.codeHost!.issueInstallationToken(1000);
    const api = (path: string) =>
      fetch(`${app.codeHost!.apiUrl}${path}`, { headers: { authorization: `token ${token}` } }).then((r) =>
        r.json(),
      );
    const pulls = (await api('/repos/acme/webapp/pulls?state=open')) as {
      number: number;
      title: string;
      head: { ref: string; sha: string };
    }[];
    const pull = pulls.find((p) => p.head.ref === 'tandem-1-2');
    expect(pull).toMatchObject({ title: 'Add subtract', head: { sha: commit.commit_sha } });
    // The foreign branch is untouched and no pull request was opened or claimed from it.
    const foreign = (await api('/repos/acme/webapp/branches/tandem-1')) as { commit: { sha: string } };
    expect(foreign.commit.sha).toBe(foreignSha);
    expect(pulls.some((p) => p.head.ref === 'tandem-1')).toBe(false);
    const lifecycle = page.conversation.find((i) => i.item_type === 'number_lifecycle')!;
    expect(lifecycle).toMatchObject({ number: pull!.number, action: 'opened' });

    // ada is an admin: the page carries the model's context too (Spice Messages).
    const spice = page.spice as {
      role: string;
      content: { type: string; text?: string }[];
      response_stats: unknown;
    }[];
    expect(spice[0]).toMatchObject({
      role: 'user',
      content: [{ type: 'text', text: 'ada: Add a subtract function' }],
    });
    const calls = spice
      .filter((s) => s.role === 'assistant')
      .map((s) => s.content.map((c) => c.text).join(''));
    expect(calls.some((text) => text.includes('→ view_files'))).toBe(true);
    expect(spice.filter((s) => s.response_stats !== null)).toHaveLength(7); // one per model call

    const meta = (
      await app.server.inject({ url: `/api/agent/metadata?trajectory_id=${agent_id}`, headers: as(ada) })
    ).json();
    expect(meta.status).toBe('paused');
    // Sources: the agent's branch with its pull request and draft, and the issue it subscribed to.
    expect(meta.sources['acme/webapp']).toMatchObject([
      {
        type: 'branch',
        branch: 'tandem-1-2',
        number: pull!.number,
        state: 'open',
        pr_draft: 'Add subtract\nAdds subtract(a, b).',
        pr_draft_base_branch: 'main',
      },
      { type: 'issue', number: 1, state: 'open', branch: null },
    ]);

    // Merging on the code host reaches the product as a real webhook and marks the source merged.
    const codeHostRepo = (await api('/repos/acme/webapp')) as { id: number };
    await app.database.db
      .update(repositories)
      .set({ githubId: codeHostRepo.id })
      .where(eq(repositories.fullName, 'acme/webapp'));
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.server.address() as AddressInfo;
    app.codeHost!.connectProduct({ webhookUrl: `http://127.0.0.1:${address.port}/api/github/webhooks` });
    const merged = await fetch(`${app.codeHost!.apiUrl}/repos/acme/webapp/pulls/${pull!.number}/merge`, {
      method: 'PUT',
      headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(merged.status).toBe(200);
    await app.codeHost!.webhooksIdle();
    await app.webhooks.idle();
    const after = (
      await app.server.inject({ url: `/api/agent/metadata?trajectory_id=${agent_id}`, headers: as(ada) })
    ).json();
    expect(after.sources['acme/webapp'][0]).toMatchObject({ number: pull!.number, state: 'merged' });
    expect(meta.credits_spent).toBeGreaterThan(0);
  });
});
