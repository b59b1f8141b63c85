import { appendItem } from '@tandem/agent';
import { agents, conversationItems, repositories } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { createAgentResponseSchema } from '@tandem/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverWebhook } from '../../testing/code-host-product.js';
import { useTestApp, type RecordingRunner, type TestApp, type TestUser } from '../../testing/test-app.js';
import { AUTO_FIX_ATTEMPTS } from './auto-fix.js';

/**
 * A failed CI run on an agent's own branch wakes the agent to fix it, a bounded number of times
 * per round (a person's message starts a new round); other failures leave it alone.
 */
describe.each(testDatabaseKinds())('auto-fix on %s', (kind) => {
  const testApp = useTestApp(kind);
  let app: TestApp;
  let ada: TestUser;
  let repoGithubId: number;
  let agentId: string;
  let runId = 9000;
  let delivery = 0;
  const sha = (n: number) => n.toString(16).padStart(40, 'a');
  const as = () => ({ authorization: `Bearer ${ada.token}` });

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({
      username: 'ada',
      installations: [{ id: 41, name: 'acme', role: 'admin', repos: ['acme/fix'] }],
    });
    const [repo] = await app.database.db
      .select({ githubId: repositories.githubId })
      .from(repositories)
      .where(eq(repositories.fullName, 'acme/fix'));
    repoGithubId = repo!.githubId;
  });

  beforeEach(async () => {
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/fix',
      headers: as(),
      payload: { body: 'Fix the build' },
    });
    agentId = createAgentResponseSchema.parse(res.json()).agent_id;
    await app.database.db
      .update(agents)
      .set({ branch: 'tandem-7', status: 'paused' })
      .where(eq(agents.id, agentId));
    await commit(1);
    (app.runner as RecordingRunner).enqueued.length = 0;
  });

  const commit = (n: number) =>
    appendItem(app.database.db, agentId, {
      itemType: 'commit',
      data: { commit_sha: sha(n), repository_name: 'acme/fix', branch: 'tandem-7', workflows: [] },
    });
  const fail = async (n = 1, run: Record<string, unknown> = {}) => {
    const body = JSON.stringify({
      action: 'completed',
      installation: { id: 41 },
      repository: { id: repoGithubId, full_name: 'acme/fix' },
      workflow_run: {
        id: ++runId,
        name: 'CI',
        head_sha: sha(n),
        head_branch: 'tandem-7',
        status: 'completed',
        conclusion: 'failure',
        html_url: `http://ci.example/runs/${runId}`,
        ...run,
      },
    });
    await deliverWebhook(app, 'workflow_run', `fix-${kind}-${++delivery}`, JSON.parse(body));
  };
  const items = () =>
    app.database.db
      .select({ actionType: conversationItems.actionType, data: conversationItems.data })
      .from(conversationItems)
      .where(
        and(
          eq(conversationItems.agentId, agentId),
          inArray(conversationItems.actionType, ['workflow_run', 'ActivitySummaryEvent']),
        ),
      )
      .orderBy(asc(conversationItems.timestamp));
  const enqueued = () => (app.runner as RecordingRunner).enqueued.filter((id) => id === agentId).length;

  it("wakes the agent with the failure when its own branch's newest commit fails", async () => {
    await fail();
    const [wake] = await items();
    expect(wake?.actionType).toBe('workflow_run');
    expect(wake?.data).toMatchObject({ username: 'CI', workflow_status: 'failure', workflow_name: 'CI' });
    expect(String(wake?.data.message)).toContain(`Auto-fix attempt 1 of ${AUTO_FIX_ATTEMPTS}`);
    // No code host in this test: the log cannot be read, and the agent is told where to look.
    expect(String(wake?.data.message)).toContain('ci_log');
    expect(enqueued()).toBe(1);
    const [row] = await app.database.db.select().from(agents).where(eq(agents.id, agentId));
    expect(row?.status).toBe('pending');
  });

  it('leaves other branches, older commits and repositories without auto-fix alone', async () => {
    await fail(1, { head_branch: 'main' });
    await commit(2);
    await fail(1);
    await app.database.db
      .update(repositories)
      .set({ autoFix: false })
      .where(eq(repositories.githubId, repoGithubId));
    await fail(2);
    await app.database.db
      .update(repositories)
      .set({ autoFix: true })
      .where(eq(repositories.githubId, repoGithubId));
    await fail(2, { conclusion: 'success' });
    expect(await items()).toEqual([]);
    expect(enqueued()).toBe(0);
  });

  it('stops after the attempts of a round, says so once, and starts over after a message', async () => {
    for (let i = 0; i < AUTO_FIX_ATTEMPTS + 2; i++) await fail();
    const kinds = (await items()).map((i) => i.actionType);
    expect(kinds).toEqual([...Array(AUTO_FIX_ATTEMPTS).fill('workflow_run'), 'ActivitySummaryEvent']);
    expect(enqueued()).toBe(AUTO_FIX_ATTEMPTS);

    const sent = await app.server.inject({
      method: 'POST',
      url: `/api/agent/message?trajectory_id=${agentId}`,
      headers: as(),
      payload: { message: 'Try once more, the base branch is fixed' },
    });
    expect(sent.statusCode).toBe(200);
    await fail();
    const last = (await items()).at(-1);
    expect(last?.actionType).toBe('workflow_run');
    expect(String(last?.data.message)).toContain(`Auto-fix attempt 1 of ${AUTO_FIX_ATTEMPTS}`);
  });
});
