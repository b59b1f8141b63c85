import { eq, inArray } from 'drizzle-orm';
import { agentReads, agents, agentSources, repositories } from '@tandem/db';
import {
  agentListSchema,
  agentMetadataSchema,
  conversationResponseSchema,
  createAgentResponseSchema,
  statusCountsSchema,
  supervisorListSchema,
} from '@tandem/shared';
import { testDatabaseKinds } from '@tandem/db/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

describe.each(testDatabaseKinds())('agents API on %s', (kind) => {
  const testApp = useTestApp(kind);
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let eve: TestUser;
  let root: TestUser;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({
      username: 'ada',
      installations: [{ id: 11, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
    bob = await app.signIn({ username: 'bob', installations: [{ id: 11, name: 'acme', role: 'member' }] });
    eve = await app.signIn({
      username: 'eve',
      installations: [{ id: 12, name: 'eve', role: 'admin', repos: ['eve/site'] }],
    });
    root = await app.signIn({ username: 'root', admin: true });
  });

  const create = (user: TestUser, payload: Record<string, unknown>, repo = 'acme/webapp') =>
    app.server.inject({
      method: 'POST',
      url: `/api/agents/create-agent/${repo}`,
      headers: as(user),
      payload,
    });
  const metadata = (user: TestUser, id: string) =>
    app.server.inject({ url: `/api/agent/metadata?trajectory_id=${id}`, headers: as(user) });

  it('creates an agent and stores the first message before answering', async () => {
    const res = await create(ada, { body: 'Add a subtract function\nwith tests', base_branch: 'main' });
    const created = createAgentResponseSchema.parse(res.json());
    expect(created.temp_title).toBe('Add a subtract function');

    const meta = agentMetadataSchema.parse((await metadata(ada, created.agent_id)).json());
    expect(meta).toMatchObject({
      title: 'New Chat',
      status: 'pending',
      repo_name: 'acme/webapp',
      // The test server has no model key, so its default is the offline demo model (issue 16).
      model: 'demo',
      review_model: 'gpt-5-medium',
      summarization_limit: 150000,
      is_own: true,
      archived: false,
      base_branch: 'main',
      has_unread: false,
      creator_username: 'ada',
    });

    const conversation = conversationResponseSchema.parse(
      (
        await app.server.inject({
          url: `/api/agent/conversation?trajectory_id=${created.agent_id}`,
          headers: as(ada),
        })
      ).json(),
    );
    expect(conversation.has_more).toBe(false);
    expect(conversation.conversation).toEqual([
      expect.objectContaining({
        item_type: 'message',
        action_type: 'website_request',
        action_uuid: created.event_uuid,
        message: 'Add a subtract function\nwith tests',
      }),
    ]);
    const latest = await app.server.inject({
      url: `/api/agent/latest-timestamp?trajectory_id=${created.agent_id}`,
      headers: as(ada),
    });
    expect(latest.json().latest_timestamp).toEqual(expect.any(String));
  });

  it('refuses bad input with clear messages', async () => {
    const branch = await create(ada, { body: 'x', base_branch: 'bad branch' });
    expect(branch.statusCode).toBe(422);
    expect(branch.json().detail[0].msg).toBe('Branch name contains invalid characters');
    expect((await create(ada, { body: '   ' })).json().detail).toBe('Write a message or attach an image');
    expect((await create(ada, { body: 'x', model: 'gpt-2' })).json().detail).toBe('Unknown model "gpt-2"');
    expect((await create(ada, { body: 'x', model: 'o3' })).statusCode).toBe(422); // admin-only
    expect((await create(ada, { body: 'x' }, 'acme/unknown')).statusCode).toBe(404);
    expect((await create(eve, { body: 'x' })).statusCode).toBe(404);
  });

  it('validates titles with the spec messages', async () => {
    const { agent_id } = createAgentResponseSchema.parse((await create(ada, { body: 'Rename me' })).json());
    const rename = (title: string) =>
      app.server.inject({
        method: 'POST',
        url: '/api/agent/update-title',
        headers: as(ada),
        payload: { trajectory_id: agent_id, title },
      });
    expect((await rename('a')).json().detail[0].msg).toBe('Title must be between 2 and 200 characters');
    expect((await rename('x'.repeat(201))).json().detail[0].msg).toBe(
      'Title must be between 2 and 200 characters',
    );
    expect((await rename('two\nlines')).json().detail[0].msg).toBe('Title cannot contain line breaks');
    expect((await rename('Subtract function')).json()).toMatchObject({ title: 'Subtract function' });
  });

  it("hides other people's agents behind a 404, except from admins", async () => {
    const { agent_id } = createAgentResponseSchema.parse(
      (await create(ada, { body: 'Private work' })).json(),
    );
    expect((await metadata(eve, agent_id)).statusCode).toBe(404);
    expect((await metadata(bob, agent_id)).statusCode).toBe(404); // repository does not share agents
    expect((await metadata(root, agent_id)).statusCode).toBe(200);
    const archive = await app.server.inject({
      method: 'POST',
      url: '/api/agent/archive',
      headers: as(root),
      payload: { trajectory_id: agent_id },
    });
    expect(archive.statusCode).toBe(403);
  });

  it("lists the repository's unarchived supervisors the viewer can see", async () => {
    const made = await Promise.all(
      ['Supervise the release', 'A worker agent', 'Old supervisor'].map(async (body) =>
        createAgentResponseSchema.parse((await create(ada, { body })).json()),
      ),
    );
    const [lead, , old] = made.map((m) => m.agent_id);
    await app.database.db
      .update(agents)
      .set({ agentType: 'supervisor', title: 'Release lead' })
      .where(eq(agents.id, lead!));
    await app.database.db
      .update(agents)
      .set({ agentType: 'supervisor', archived: true })
      .where(eq(agents.id, old!));
    const supervisors = (user: TestUser) =>
      app.server
        .inject({ url: '/api/agents/supervisors/acme/webapp', headers: as(user) })
        .then((r) => supervisorListSchema.parse(r.json()));
    expect(await supervisors(ada)).toEqual([{ id: lead, title: 'Release lead', base_branch: null }]);
    // Without access to the repository its supervisors are a 404, not an empty list.
    const outsider = await app.server.inject({
      url: '/api/agents/supervisors/acme/webapp',
      headers: as(eve),
    });
    expect(outsider.statusCode).toBe(404);
    // Leave the agent counts of the tests below as they were.
    await app.database.db.delete(agents).where(
      inArray(
        agents.id,
        made.map((m) => m.agent_id),
      ),
    );
  });

  it('lists with creator:, is:archived and free-text search, paged and ordered', async () => {
    const { agent_id } = createAgentResponseSchema.parse((await create(ada, { body: 'Archive me' })).json());
    await app.server.inject({
      method: 'POST',
      url: '/api/agent/archive',
      headers: as(ada),
      payload: { trajectory_id: agent_id },
    });
    const list = async (query: string) =>
      agentListSchema.parse(
        (await app.server.inject({ url: `/api/agents?${query}`, headers: as(ada) })).json(),
      );

    const all = await list('search=creator:me');
    expect(all.count).toBe(4);
    const archived = await list(`search=${encodeURIComponent('creator:me is:archived')}`);
    expect(archived.agents.map((a) => a.id)).toEqual([agent_id]);
    expect((await list(`search=${encodeURIComponent('is:unarchived')}`)).count).toBe(3);
    const paged = await list('rows_per_page=2&page=2&orderBy=created_at_asc');
    expect(paged.agents).toHaveLength(2);
    expect(paged.count).toBe(4);
    expect((await list('search=Rename')).count).toBe(0); // titles are 'New Chat' or renamed ones
    expect((await list('search=Subtract')).count).toBe(1);
    const byRepo = agentListSchema.parse(
      (await app.server.inject({ url: '/api/agents/acme/webapp', headers: as(ada) })).json(),
    );
    expect(byRepo.count).toBe(4);
    expect(
      agentListSchema.parse((await app.server.inject({ url: '/api/agents', headers: as(eve) })).json()).count,
    ).toBe(0);
  });

  it('stores a sent message before answering and counts running and unread agents', async () => {
    const { agent_id } = createAgentResponseSchema.parse((await create(ada, { body: 'Message me' })).json());
    const send = (payload: Record<string, unknown>) =>
      app.server.inject({
        method: 'POST',
        url: `/api/agent/message?trajectory_id=${agent_id}`,
        headers: as(ada),
        payload,
      });
    const sent = await send({ message: 'Also update the README' });
    const { event_uuid } = sent.json();
    const conversation = conversationResponseSchema.parse(
      (
        await app.server.inject({
          url: `/api/agent/conversation?trajectory_id=${agent_id}`,
          headers: as(ada),
        })
      ).json(),
    );
    expect(conversation.conversation.at(-1)).toMatchObject({
      action_uuid: event_uuid,
      message: 'Also update the README',
    });
    expect((await send({ message: '  ' })).statusCode).toBe(422);
    const fromBob = await app.server.inject({
      method: 'POST',
      url: `/api/agent/message?trajectory_id=${agent_id}`,
      headers: as(bob),
      payload: { message: 'hi' },
    });
    expect(fromBob.statusCode).toBe(404);

    const counts = statusCountsSchema.parse(
      (await app.server.inject({ url: '/api/agents/status-counts', headers: as(ada) })).json(),
    );
    expect(counts.running_agents.map((a) => a.id)).toContain(agent_id);
    expect(counts.unread_agents).toEqual([]);
    // A newer item than ada's last read makes it unread; Mark all read clears it.
    await app.database.db
      .update(agents)
      .set({ latestTimestamp: new Date(Date.now() + 60_000) })
      .where(eq(agents.id, agent_id));
    // Written behind the server's back: wait until its change notice reached the poll caches.
    await app.pollCache.settled();
    const unread = statusCountsSchema.parse(
      (await app.server.inject({ url: '/api/agents/status-counts', headers: as(ada) })).json(),
    );
    expect(unread.unread_agents.map((a) => a.id)).toEqual([agent_id]);
    // Read two minutes ago, newest item one minute ago: unread until Mark all read.
    await app.database.db
      .update(agents)
      .set({ latestTimestamp: new Date(Date.now() - 60_000) })
      .where(eq(agents.id, agent_id));
    await app.database.db
      .update(agentReads)
      .set({ readAt: new Date(Date.now() - 120_000) })
      .where(eq(agentReads.agentId, agent_id));
    await app.pollCache.settled();
    const stillUnread = statusCountsSchema.parse(
      (await app.server.inject({ url: '/api/agents/status-counts', headers: as(ada) })).json(),
    );
    expect(stillUnread.unread_agents.map((a) => a.id)).toEqual([agent_id]);
    await app.server.inject({ method: 'POST', url: '/api/agent/mark-all-read', headers: as(ada) });
    const cleared = statusCountsSchema.parse(
      (await app.server.inject({ url: '/api/agents/status-counts', headers: as(ada) })).json(),
    );
    expect(cleared.unread_agents).toEqual([]);
    // latest_timestamp may run a few milliseconds ahead of the clock after a burst of items: an
    // agent read then (one agent, or all) is read, not unread.
    const markedAt = async (url: string) => {
      await app.database.db
        .update(agents)
        .set({ latestTimestamp: new Date(Date.now() + 60_000) })
        .where(eq(agents.id, agent_id));
      await app.pollCache.settled();
      await app.server.inject({ method: 'POST', url, headers: as(ada) });
      return statusCountsSchema.parse(
        (await app.server.inject({ url: '/api/agents/status-counts', headers: as(ada) })).json(),
      ).unread_agents;
    };
    expect(await markedAt(`/api/agent/mark-read?trajectory_id=${agent_id}`)).toEqual([]);
    expect(await markedAt('/api/agent/mark-all-read')).toEqual([]);
    // A message sent then moves latest_timestamp forward, never back to the clock (open workspaces
    // re-read only when it passes what they saw), and the sender's own message leaves it read.
    const ahead = new Date(Date.now() + 60_000);
    await app.database.db.update(agents).set({ latestTimestamp: ahead }).where(eq(agents.id, agent_id));
    await app.pollCache.settled();
    expect((await send({ message: 'One more thing' })).statusCode).toBe(200);
    const [after] = await app.database.db
      .select({ latest: agents.latestTimestamp })
      .from(agents)
      .where(eq(agents.id, agent_id));
    expect(after!.latest!.getTime()).toBeGreaterThan(ahead.getTime());
    expect(
      statusCountsSchema.parse(
        (await app.server.inject({ url: '/api/agents/status-counts', headers: as(ada) })).json(),
      ).unread_agents,
    ).toEqual([]);
  });

  it('changes models and the summarization limit with the spec messages', async () => {
    const { agent_id } = createAgentResponseSchema.parse((await create(ada, { body: 'Models' })).json());
    const put = (url: string, payload: Record<string, unknown>) =>
      app.server.inject({
        method: 'PUT',
        url,
        headers: as(ada),
        payload: { trajectory_id: agent_id, ...payload },
      });
    expect((await put('/api/agent/update-model', { model: 'opus-4-1' })).json()).toMatchObject({
      model: 'opus-4-1',
    });
    expect((await put('/api/agent/update-model', { model: 'o3' })).statusCode).toBe(422);
    expect((await put('/api/agent/update-review-model', { model: null })).json()).toMatchObject({
      review_model: null,
    });
    const limit = (value: unknown) =>
      put('/api/agent/update-summarization-limit', { summarization_limit: value });
    expect((await limit('lots')).json().detail).toBe('Summarization limit must be a valid number.');
    expect((await limit(99999)).json().detail).toBe('Minimum summarization limit is 100000');
    expect((await limit(160001)).json().detail).toBe('Maximum summarization limit for Opus 4.1 is 160000');
    expect((await limit(160001)).statusCode).toBe(400);
    expect((await limit('120000')).json()).toMatchObject({ summarization_limit: 120000 });
  });

  it('refuses to unarchive while another active agent works on the same pull request', async () => {
    const [first, second] = await Promise.all(
      ['Fix the flaky test', 'Fix the flaky test again'].map(async (body) =>
        createAgentResponseSchema.parse((await create(ada, { body })).json()),
      ),
    );
    const [repo] = await app.database.db
      .select()
      .from(repositories)
      .where(eq(repositories.fullName, 'acme/webapp'));
    await app.database.db.insert(agentSources).values([
      { agentId: first!.agent_id, repositoryId: repo!.id, type: 'branch', branch: 'tandem-7', number: 42 },
      { agentId: second!.agent_id, repositoryId: repo!.id, type: 'branch', branch: 'fix-flaky', number: 42 },
    ]);
    const meta = agentMetadataSchema.parse((await metadata(ada, first!.agent_id)).json());
    expect(meta.sources).toEqual({
      'acme/webapp': [
        expect.objectContaining({ type: 'branch', branch: 'tandem-7', number: 42, state: 'open' }),
      ],
    });
    const post = (path: string, id: string) =>
      app.server.inject({
        method: 'POST',
        url: `/api/agent/${path}`,
        headers: as(ada),
        payload: { trajectory_id: id },
      });
    expect((await post('archive', first!.agent_id)).json()).toEqual({ success: true });
    expect((await post('unarchive', first!.agent_id)).json()).toEqual({
      success: false,
      error_data: { html_url: `/gh/acme/webapp/agent/${second!.agent_id}`, number: 42 },
    });
    expect(agentMetadataSchema.parse((await metadata(ada, first!.agent_id)).json()).archived).toBe(true);
    // How a source wakes the agent: only the agent's own sources can be changed.
    const mine = meta.sources['acme/webapp']![0]!.id;
    const behavior = (source_id: string, value: string) =>
      app.server.inject({
        method: 'POST',
        url: '/api/agent/behavior',
        headers: as(ada),
        payload: { trajectory_id: first!.agent_id, source_id, behavior: value },
      });
    const tagged = await behavior(mine, 'tagged');
    expect(agentMetadataSchema.parse(tagged.json()).sources['acme/webapp']![0]).toMatchObject({
      behavior: 'tagged',
    });
    const [other] = await app.database.db
      .select({ id: agentSources.id })
      .from(agentSources)
      .where(eq(agentSources.agentId, second!.agent_id));
    expect((await behavior(other!.id, 'tagged')).statusCode).toBe(404);
    expect((await behavior(mine, 'sometimes')).statusCode).toBe(422);

    // Once the other agent is archived, this one may come back.
    await post('archive', second!.agent_id);
    expect((await post('unarchive', first!.agent_id)).json()).toEqual({ success: true });
    await app.database.db.delete(agents).where(inArray(agents.id, [first!.agent_id, second!.agent_id]));
  });
});
