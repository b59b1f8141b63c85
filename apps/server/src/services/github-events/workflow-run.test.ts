import { appendItem } from '@tandem/agent';
import { agents, repositories, webhookDeliveries } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { conversationResponseSchema, createAgentResponseSchema } from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../testing/agent-harness.js';
import { deliverWebhook } from '../../testing/code-host-product.js';
import { useTestApp, type TestApp, type TestUser } from '../../testing/test-app.js';
import { mergeWorkflow, workflowStatus, type WorkflowEntry } from './workflow-run.js';

const entry = (status: WorkflowEntry['workflow_status'], attempt = 1): WorkflowEntry => ({
  workflow_run_id: 7,
  workflow_name: 'CI',
  workflow_status: status,
  workflow_run_attempt: attempt,
  html_url: null,
});

describe('workflow entries', () => {
  it('maps GitHub statuses and conclusions to the feed statuses', () => {
    const run = (status: string, conclusion: string | null = null) =>
      workflowStatus({ id: 1, head_sha: 'a'.repeat(40), status, conclusion });
    expect(run('queued')).toBe('queued');
    expect(run('requested')).toBe('queued');
    expect(run('waiting')).toBe('queued');
    expect(run('in_progress')).toBe('in_progress');
    expect(run('completed', 'success')).toBe('success');
    expect(run('completed', 'skipped')).toBe('success');
    expect(run('completed', 'failure')).toBe('failure');
    expect(run('completed', 'timed_out')).toBe('failure');
    expect(run('completed', 'cancelled')).toBe('failure');
  });

  it('keeps a finished run against late news, and lets a re-run start over', () => {
    expect(mergeWorkflow(undefined, entry('queued'))).toEqual([entry('queued')]);
    expect(mergeWorkflow([entry('queued')], entry('in_progress'))).toEqual([entry('in_progress')]);
    expect(mergeWorkflow([entry('failure')], entry('in_progress'))).toEqual([entry('failure')]);
    expect(mergeWorkflow([entry('failure')], entry('queued', 2))).toEqual([entry('queued', 2)]);
    expect(mergeWorkflow([entry('success', 2)], entry('failure', 1))).toEqual([entry('success', 2)]);
    const other = { ...entry('queued'), workflow_run_id: 8, workflow_name: 'Lint' };
    expect(mergeWorkflow([entry('success')], other)).toEqual([entry('success'), other]);
  });
});

/** CI results reach the commit items of agents' commits, live, whatever order they come in. */
describe.each(testDatabaseKinds())('workflow runs on %s', (kind) => {
  const testApp = useTestApp(kind);
  let app: TestApp;
  let ada: TestUser;
  let agentId: string;
  let repoGithubId: number;
  const sha = 'c0ffee'.padEnd(40, '0');
  const as = { authorization: '' };

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({
      username: 'ada',
      installations: [{ id: 31, name: 'acme', role: 'admin', repos: ['acme/ci'] }],
    });
    as.authorization = `Bearer ${ada.token}`;
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/ci',
      headers: as,
      payload: { body: 'Make CI green' },
    });
    agentId = createAgentResponseSchema.parse(res.json()).agent_id;
    await appendItem(app.database.db, agentId, {
      itemType: 'commit',
      data: {
        commit_sha: sha,
        repository_name: 'acme/ci',
        branch: 'tandem-1',
        commit_message: 'Fix',
        workflows: [],
      },
    });
    const [repo] = await app.database.db
      .select({ githubId: repositories.githubId })
      .from(repositories)
      .where(eq(repositories.fullName, 'acme/ci'));
    repoGithubId = repo!.githubId;
  });

  let delivery = 0;
  const deliver = async (run: Record<string, unknown>, overrides: Record<string, unknown> = {}) => {
    const body = JSON.stringify({
      action:
        run.status === 'completed' ? 'completed' : run.status === 'in_progress' ? 'in_progress' : 'requested',
      installation: { id: 31 },
      repository: { id: repoGithubId, full_name: 'acme/ci' },
      workflow_run: { id: 4242, name: 'CI', head_sha: sha, head_branch: 'tandem-1', run_attempt: 1, ...run },
      ...overrides,
    });
    const status = await deliverWebhook(app, 'workflow_run', `wf-${kind}-${++delivery}`, JSON.parse(body));
    expect(status).toBeLessThan(300);
  };
  const workflows = async () => {
    const res = await app.server.inject({
      url: `/api/agent/conversation?trajectory_id=${agentId}`,
      headers: as,
    });
    const commit = conversationResponseSchema
      .parse(res.json())
      .conversation.find((i) => i.item_type === 'commit');
    return (commit?.workflows as { workflow_status: string; workflow_name: string }[]).map(
      (w) => `${w.workflow_name}:${w.workflow_status}`,
    );
  };
  const latest = async () =>
    (
      await app.database.db.select().from(agents).where(eq(agents.id, agentId))
    )[0]!.latestTimestamp!.getTime();

  it('shows a run on the commit as it goes, and moves the feed', async () => {
    const before = await latest();
    await deliver({ status: 'queued' });
    expect(await workflows()).toEqual(['CI:queued']);
    expect(await latest()).toBeGreaterThan(before);
    await deliver({ status: 'in_progress' });
    expect(await workflows()).toEqual(['CI:in_progress']);
    await deliver({ status: 'completed', conclusion: 'failure' });
    expect(await workflows()).toEqual(['CI:failure']);
  });

  it('ignores late news of a finished run and shows a re-run', async () => {
    await deliver({ status: 'in_progress' });
    expect(await workflows()).toEqual(['CI:failure']);
    await deliver({ status: 'queued', run_attempt: 2 });
    expect(await workflows()).toEqual(['CI:queued']);
    await deliver({ id: 4343, name: 'Lint', status: 'completed', conclusion: 'success' });
    expect(await workflows()).toEqual(['CI:queued', 'Lint:success']);
  });

  it('applies a run whose events come before the agent recorded its commit, once it has', async () => {
    const early = 'e4';
    const earlySha = early.padEnd(40, '1');
    await app.database.db
      .update(agents)
      .set({ branch: 'tandem-9', status: 'open' })
      .where(eq(agents.id, agentId));
    await deliver(
      { id: 5151, status: 'in_progress', head_sha: earlySha, head_branch: 'tandem-9' },
      { action: 'in_progress' },
    );
    const [deferred] = await app.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.deliveryId, `wf-${kind}-${delivery}`));
    expect(deferred!.processedAt).toBeNull();
    expect(deferred!.nextAttemptAt).toBeInstanceOf(Date);
    await appendItem(app.database.db, agentId, {
      itemType: 'commit',
      data: {
        commit_sha: earlySha,
        repository_name: 'acme/ci',
        branch: 'tandem-9',
        commit_message: 'Early',
        workflows: [],
      },
    });
    // The test app retries after 50 ms.
    await until(
      'the early run to reach its commit',
      async () => {
        await app.webhooks.idle();
        const res = await app.server.inject({
          url: `/api/agent/conversation?trajectory_id=${agentId}`,
          headers: as,
        });
        const commit = conversationResponseSchema
          .parse(res.json())
          .conversation.find((i) => i.item_type === 'commit' && i.commit_sha === earlySha);
        const list = (commit?.workflows ?? []) as { workflow_status: string }[];
        return list[0]?.workflow_status === 'in_progress' ? true : undefined;
      },
      { timeoutMs: 5_000, intervalMs: 50 },
    );
    // An agent not working on the branch has no commit coming: applied (to nothing) at once.
    await app.database.db.update(agents).set({ status: 'paused' }).where(eq(agents.id, agentId));
    await deliver({ id: 5252, status: 'queued', head_sha: 'f5'.padEnd(40, '2'), head_branch: 'tandem-9' });
    const [applied] = await app.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.deliveryId, `wf-${kind}-${delivery}`));
    expect(applied).toMatchObject({ attempts: 1, error: null });
    await app.database.db.update(agents).set({ branch: null }).where(eq(agents.id, agentId));
  });

  it('leaves commits alone for runs of another repository or installation', async () => {
    await deliver({ id: 5000, name: 'Elsewhere', status: 'queued' }, { repository: { id: 999_999 } });
    await deliver({ id: 5001, name: 'Foreign', status: 'queued' }, { installation: { id: 32 } });
    expect(await workflows()).toEqual(['CI:queued', 'Lint:success']);
  });

  it("shows other CI apps' check suites, and not Actions' own", async () => {
    const suite = async (app_: { slug: string; name: string }, id: number) => {
      const body = JSON.stringify({
        action: 'completed',
        installation: { id: 31 },
        repository: { id: repoGithubId, full_name: 'acme/ci' },
        check_suite: {
          id,
          head_sha: sha,
          head_branch: 'tandem-1',
          status: 'completed',
          conclusion: 'success',
          app: app_,
        },
      });
      await deliverWebhook(app, 'check_suite', `cs-${kind}-${id}`, JSON.parse(body));
    };
    await suite({ slug: 'github-actions', name: 'GitHub Actions' }, 7001);
    await suite({ slug: 'circleci-checks', name: 'CircleCI' }, 7002);
    expect(await workflows()).toEqual(['CI:queued', 'Lint:success', 'CircleCI:success']);
  });

  it('refuses a malformed run with 422', async () => {
    const body = JSON.stringify({ action: 'completed', workflow_run: { id: 1, head_sha: 'not a sha' } });
    expect(await deliverWebhook(app, 'workflow_run', `wf-bad-${kind}`, JSON.parse(body))).toBe(422);
  });
});
