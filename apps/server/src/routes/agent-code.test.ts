import type { EmbeddedRunner } from '@tandem/agent';
import { agentSources } from '@tandem/db';
import {
  agentBranchResponseSchema,
  agentDiffResponseSchema,
  agentLogSchema,
  agentMetadataSchema,
  agentScriptsResponseSchema,
  conversationResponseSchema,
  createAgentResponseSchema,
  fileContentSchema,
} from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADD_SUBTRACT_EDIT, writeScriptFile } from '../testing/agent-harness.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

const ADD_SCRIPTS =
  'mkdir -p .tandem/run && printf "echo hello\\n" > .tandem/run/hello.sh && printf "echo formatted\\n" > .tandem/format.sh';

const scriptFile = writeScriptFile([
  {
    match: 'subtract',
    steps: [
      { tool_calls: [{ name: 'edit_file', args: ADD_SUBTRACT_EDIT }] },
      { tool_calls: [{ name: 'run_command', args: { command: ADD_SCRIPTS } }] },
      { tool_calls: [{ name: 'commit_and_push', args: { message: 'Add subtract\n\nAnd scripts.' } }] },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'Done.' } }] },
    ],
  },
]);

describe('the workspace code-host reads (/api/agent/branch, diff, file, log, scripts)', () => {
  const testApp = useTestApp('pglite', {
    codeHost: true,
    agents: { models: { scriptedModelFile: scriptFile } },
  });
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let agentId: string;
  let sourceId: string;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
  const get = (user: TestUser, url: string) => app.server.inject({ url, headers: as(user) });

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({
      username: 'ada',
      installations: [{ id: 1000, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
    bob = await app.signIn({ username: 'bob' });
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: as(ada),
      payload: { body: 'Add a subtract function', model: 'scripted' },
    });
    agentId = createAgentResponseSchema.parse(res.json()).agent_id;
    await (app.runner as EmbeddedRunner).idle(agentId);
    const meta = agentMetadataSchema.parse(
      (await get(ada, `/api/agent/metadata?trajectory_id=${agentId}`)).json(),
    );
    sourceId = meta.sources['acme/webapp']!.find((s) => s.type === 'branch')!.id;
  });

  it("describes the agent's branch: its commits since the base, the merge base and the compare page", async () => {
    const res = await get(ada, `/api/agent/branch?trajectory_id=${agentId}&source_id=${sourceId}`);
    expect(res.statusCode).toBe(200);
    const branch = agentBranchResponseSchema.parse(res.json());
    expect(branch).toMatchObject({
      repository_name: 'acme/webapp',
      base_branch: 'main',
      pushed: true,
      pull_request: null,
      draft_title: 'Add subtract',
    });
    expect(branch.commits.map((c) => c.title)).toEqual(['Add subtract']);
    expect(branch.base_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(branch.compare_url).toBe(`${app.codeHost!.url}/acme/webapp/compare/main...${branch.branch}`);
  });

  it('diffs two commits with both sides of every file', async () => {
    const branch = agentBranchResponseSchema.parse(
      (await get(ada, `/api/agent/branch?trajectory_id=${agentId}&source_id=${sourceId}`)).json(),
    );
    const head = branch.commits.at(-1)!.sha;
    const url = `/api/agent/diff?trajectory_id=${agentId}&source_id=${sourceId}&from=${branch.base_sha}&to=${head}`;
    const res = await get(ada, url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, max-age=86400');
    const diff = agentDiffResponseSchema.parse(res.json());
    expect(diff.truncated).toBe(false);
    const byName = Object.fromEntries(diff.files.map((f) => [f.filename, f]));
    expect(Object.keys(byName).sort()).toEqual(['.tandem/format.sh', '.tandem/run/hello.sh', 'src/math.js']);
    const math = byName['src/math.js']!;
    expect(math).toMatchObject({ status: 'modified', additions: 4, deletions: 0 });
    expect(math.original.status === 'ok' && math.original.contents).not.toContain('subtract');
    expect(math.modified.status === 'ok' && math.modified.contents).toContain('return a - b;');
    expect(byName['.tandem/run/hello.sh']).toMatchObject({
      status: 'added',
      original: { status: 'not_found', contents: '' },
      modified: { status: 'ok', contents: 'echo hello\n' },
    });
    // Served again from the cache, identical.
    expect((await get(ada, url)).json()).toEqual(res.json());
  });

  it('reads a file at a ref, and a missing one as empty', async () => {
    const branch = agentBranchResponseSchema.parse(
      (await get(ada, `/api/agent/branch?trajectory_id=${agentId}&source_id=${sourceId}`)).json(),
    );
    const file = (path: string, ref?: string) =>
      get(
        ada,
        `/api/agent/file?trajectory_id=${agentId}&repository_name=acme/webapp&path=${encodeURIComponent(path)}` +
          (ref ? `&ref=${encodeURIComponent(ref)}` : ''),
      );
    const onBranch = fileContentSchema.parse((await file('src/math.js', branch.branch)).json());
    expect(onBranch.status === 'ok' && onBranch.contents).toContain('subtract');
    const onMain = fileContentSchema.parse((await file('src/math.js')).json());
    expect(onMain.status === 'ok' && onMain.contents).not.toContain('subtract');
    expect((await file('no/such/file.txt')).json()).toEqual({ status: 'not_found', contents: '' });
    // Another installation's repository is not readable through this agent.
    const other = await get(
      ada,
      `/api/agent/file?trajectory_id=${agentId}&repository_name=ada/playground&path=README.md`,
    );
    expect(other.statusCode).toBe(404);
  });

  it('lists the Run Scripts menu and serves the format script log of the commit', async () => {
    const scripts = agentScriptsResponseSchema.parse(
      (await get(ada, `/api/agent/scripts?trajectory_id=${agentId}`)).json(),
    );
    expect(scripts).toEqual({ run: ['.tandem/run/hello.sh'], auto: [], preview: [] });

    const page = conversationResponseSchema.parse(
      (await get(ada, `/api/agent/conversation?trajectory_id=${agentId}`)).json(),
    );
    const commit = page.conversation.find((i) => i.item_type === 'commit')!;
    expect(commit.script_status).toBe('success');
    const res = await get(ada, `/api/agent/log?trajectory_id=${agentId}&log_id=${String(commit.script_log)}`);
    expect(res.statusCode).toBe(200);
    expect(agentLogSchema.parse(res.json())).toMatchObject({
      path: '.tandem/format.sh',
      status_code: 0,
      repo_name: 'acme/webapp',
      trajectory_id: agentId,
      script_contents: 'echo formatted\n',
      output: expect.stringContaining('formatted'),
    });
    const missing = await get(
      ada,
      `/api/agent/log?trajectory_id=${agentId}&log_id=00000000-0000-4000-8000-000000000000`,
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ detail: 'Failed to fetch log' });
  });

  it('reports a branch that was never pushed, a missing subscription and hides the agent from others', async () => {
    const [row] = await app.database.db.select().from(agentSources).limit(1);
    const [unpushed] = await app.database.db
      .insert(agentSources)
      .values({ agentId, repositoryId: row!.repositoryId, type: 'branch', branch: 'tandem/never-pushed' })
      .returning();
    const branch = agentBranchResponseSchema.parse(
      (await get(ada, `/api/agent/branch?trajectory_id=${agentId}&source_id=${unpushed!.id}`)).json(),
    );
    expect(branch).toMatchObject({ pushed: false, commits: [], base_sha: null });

    const gone = await get(
      ada,
      `/api/agent/branch?trajectory_id=${agentId}&source_id=00000000-0000-4000-8000-000000000000`,
    );
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ detail: 'Branch subscription not found' });

    const hidden = await get(bob, `/api/agent/branch?trajectory_id=${agentId}&source_id=${sourceId}`);
    expect(hidden.statusCode).toBe(404);
    const bad = await get(ada, `/api/agent/diff?trajectory_id=${agentId}&source_id=${sourceId}&from=x&to=y`);
    expect(bad.statusCode).toBe(422);
  });
});
