import { agents, conversationItems, webhookDeliveries } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import {
  ADMIN_TASK_EVENT,
  adminTaskActionSchema,
  adminTaskListSchema,
  createAgentResponseSchema,
} from '@tandem/shared';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type RecordingRunner, type TestApp, type TestUser } from '../testing/test-app.js';

/** The admin task monitor (platform §7 Admin; issue 21): listing, restart, fail and stop. */
describe.each(testDatabaseKinds())('admin tasks on %s', (kind) => {
  const testApp = useTestApp(kind);
  let app: TestApp;
  let root: TestUser;
  let carol: TestUser;
  let first: string;
  let second: string;
  let party: string;
  const as = (user?: TestUser) => (user ? { authorization: `Bearer ${user.token}` } : {});
  const runner = () => app.runner as RecordingRunner;

  const createAgent = async (body: string) => {
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: as(carol),
      payload: { body },
    });
    expect(res.statusCode, res.body).toBe(200);
    return createAgentResponseSchema.parse(res.json()).agent_id;
  };
  const setStatus = (id: string, status: string) =>
    app.database.db.update(agents).set({ status }).where(eq(agents.id, id));
  const act = (url: string, payload?: object) =>
    app.server.inject({ method: 'POST', url, headers: as(root), ...(payload ? { payload } : {}) });
  const adminItems = (id: string) =>
    app.database.db
      .select({ data: conversationItems.data })
      .from(conversationItems)
      .where(and(eq(conversationItems.agentId, id), eq(conversationItems.actionType, ADMIN_TASK_EVENT)));
  const list = async (path: string) => {
    const res = await app.server.inject({ url: path, headers: as(root) });
    expect(res.statusCode, res.body).toBe(200);
    return adminTaskListSchema.parse(res.json());
  };

  beforeAll(async () => {
    app = testApp();
    root = await app.signIn({ username: 'root', admin: true });
    carol = await app.signIn({
      username: 'carol',
      installations: [{ id: 51, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
    first = await createAgent('First task');
    second = await createAgent('Second task');
    party = await createAgent('Party task');
    await app.database.db.update(agents).set({ purpose: 'party' }).where(eq(agents.id, party));
    await app.database.db.insert(webhookDeliveries).values([
      {
        deliveryId: 'd-retrying',
        receivedAt: new Date(Date.now() + 1_000),
        event: 'issue_comment',
        action: 'created',
        installationId: 51,
        payload: '{}',
        attempts: 2,
        error: 'code host down',
        nextAttemptAt: new Date(Date.now() + 3_600_000),
      },
      {
        deliveryId: 'd-given-up',
        receivedAt: new Date(Date.now() + 2_000),
        event: 'push',
        installationId: 51,
        payload: '{}',
        attempts: 6,
        error: 'x',
      },
      // Applied: not a task any more.
      { deliveryId: 'd-done', event: 'push', installationId: 51, processedAt: new Date() },
    ]);
  });

  it('is for product admins only: 401 without a session, 403 for everyone else', async () => {
    const calls = [
      { method: 'GET' as const, url: '/api/admin/tasks' },
      { method: 'GET' as const, url: '/api/admin/tasks/party' },
      { method: 'POST' as const, url: '/api/admin/tasks/restart', payload: { task_id: first } },
      { method: 'POST' as const, url: `/api/admin/tasks/${first}/fail` },
      { method: 'POST' as const, url: `/api/admin/tasks/${first}/stop` },
    ];
    for (const call of calls) {
      expect((await app.server.inject({ ...call })).statusCode, call.url).toBe(401);
      expect((await app.server.inject({ ...call, headers: as(carol) })).statusCode, call.url).toBe(403);
    }
    expect(await adminItems(first)).toEqual([]);
    expect(runner().interrupted).not.toContain(first);
  });

  it('lists agents and queued deliveries newest first, filters, sorts and pages them', async () => {
    const all = await list('/api/admin/tasks');
    expect(all.count).toBe(5);
    expect(all.tasks.map((t) => t.id)).toEqual([
      'webhook:d-given-up',
      'webhook:d-retrying',
      party,
      second,
      first,
    ]);
    expect(all.tasks[3]).toMatchObject({
      kind: 'agent',
      status: 'pending',
      title: expect.any(String),
      installation: { id: 51, name: 'acme' },
      repository: 'acme/webapp',
      creator: 'carol',
      cost: 0,
    });
    expect(all.tasks.find((t) => t.id === 'webhook:d-retrying')).toMatchObject({
      kind: 'webhook',
      status: 'retrying',
      title: 'issue_comment.created',
      attempts: 2,
      error: 'code host down',
    });
    expect((await list('/api/admin/tasks?status=failed')).tasks.map((t) => t.id)).toEqual([
      'webhook:d-given-up',
    ]);
    expect((await list('/api/admin/tasks?kind=agent&descending=false')).tasks.map((t) => t.id)).toEqual([
      first,
      second,
      party,
    ]);
    const page2 = await list('/api/admin/tasks?rows_per_page=2&page=2');
    expect(page2.tasks.map((t) => t.id)).toEqual([party, second]);
    expect(page2.count).toBe(5);
    const partyList = await list('/api/admin/tasks/party');
    expect(partyList.tasks.map((t) => t.id)).toEqual([party]);
    for (const bad of ['sort_by=password', 'rows_per_page=0', 'status=sleeping', 'kind=cron']) {
      const res = await app.server.inject({ url: `/api/admin/tasks?${bad}`, headers: as(root) });
      expect(res.statusCode, bad).toBe(422);
    }
  });

  it('stops a working agent with a feed item, and refuses one that is not working', async () => {
    await setStatus(first, 'open');
    const res = await act(`/api/admin/tasks/${first}/stop`);
    expect(res.statusCode, res.body).toBe(200);
    expect(adminTaskActionSchema.parse(res.json()).task.id).toBe(first);
    expect(runner().interrupted).toContain(first);
    expect((await adminItems(first)).map((i) => i.data.admin_action)).toEqual(['stop']);

    await setStatus(first, 'paused');
    const again = await act(`/api/admin/tasks/${first}/stop`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ detail: 'This agent is not working.' });
    expect(await adminItems(first)).toHaveLength(1);
  });

  it('fails an agent (stopping it if working) and restarts it; each once', async () => {
    await setStatus(second, 'open');
    const fail = await act(`/api/admin/tasks/${second}/fail`);
    expect(fail.statusCode, fail.body).toBe(200);
    expect(adminTaskActionSchema.parse(fail.json()).task).toMatchObject({ status: 'failed' });
    expect(runner().interrupted).toContain(second);
    const again = await act(`/api/admin/tasks/${second}/fail`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ detail: 'This agent has already failed.' });

    const enqueued = runner().enqueued.length;
    const restart = await act('/api/admin/tasks/restart', { task_id: second });
    expect(restart.statusCode, restart.body).toBe(200);
    expect(adminTaskActionSchema.parse(restart.json()).task).toMatchObject({ status: 'pending' });
    expect(runner().enqueued.slice(enqueued)).toEqual([second]);
    // Pending now: a second restart would run it twice.
    const twice = await act('/api/admin/tasks/restart', { task_id: second });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ detail: 'This agent is already working.' });
    expect(runner().enqueued.slice(enqueued)).toEqual([second]);
    expect((await adminItems(second)).map((i) => i.data.admin_action)).toEqual(['fail', 'restart']);
  });

  it("stopping a supervisor stops its working sub-agents, as its owner's Pause would", async () => {
    const supervisor = await createAgent('Supervise the work');
    const sub = await createAgent('A sub-task');
    const idle = await createAgent('A finished sub-task');
    await app.database.db.update(agents).set({ agentType: 'supervisor' }).where(eq(agents.id, supervisor));
    await app.database.db.update(agents).set({ supervisorId: supervisor }).where(eq(agents.id, sub));
    await app.database.db.update(agents).set({ supervisorId: supervisor }).where(eq(agents.id, idle));
    await setStatus(supervisor, 'waiting');
    await setStatus(sub, 'open');
    await setStatus(idle, 'paused');
    const res = await act(`/api/admin/tasks/${supervisor}/stop`);
    expect(res.statusCode, res.body).toBe(200);
    expect(runner().interrupted).toEqual(expect.arrayContaining([supervisor, sub]));
    expect(runner().interrupted).not.toContain(idle);
  });

  it('retries and fails webhook deliveries; they cannot be stopped', async () => {
    const stop = await act('/api/admin/tasks/webhook:d-retrying/stop');
    expect(stop.statusCode).toBe(409);
    const fail = await act('/api/admin/tasks/webhook:d-retrying/fail');
    expect(fail.statusCode, fail.body).toBe(200);
    expect(adminTaskActionSchema.parse(fail.json()).task).toMatchObject({
      status: 'failed',
      error: 'Marked failed by an admin.',
    });
    const restart = await act('/api/admin/tasks/restart', { task_id: 'webhook:d-given-up' });
    expect(restart.statusCode, restart.body).toBe(200);
    // Queued again (the queue, kicked, may already have tried it once).
    const task = adminTaskActionSchema.parse(restart.json()).task;
    expect(task.kind === 'webhook' && task.attempts).toBeLessThanOrEqual(1);
    expect(task.status).not.toBe('failed');
  });

  it('answers 404 for a task that does not exist, and 422 for a bad body', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nonsense', 'webhook:nope', 'webhook:d-done']) {
      expect((await act(`/api/admin/tasks/${id}/fail`)).statusCode, id).toBe(404);
      expect((await act('/api/admin/tasks/restart', { task_id: id })).statusCode, id).toBe(404);
    }
    expect((await act('/api/admin/tasks/restart', { id: first })).statusCode).toBe(422);
  });
});
