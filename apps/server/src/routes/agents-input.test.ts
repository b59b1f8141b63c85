import { eq } from 'drizzle-orm';
import { agents, conversationItems } from '@tandem/db';
import {
  BRANCH_MESSAGES,
  conversationResponseSchema,
  createAgentResponseSchema,
  IMAGE_MESSAGES,
  MAX_IMAGES_PER_MESSAGE,
  TEXT_MESSAGES,
} from '@tandem/shared';
import { testDatabaseKinds } from '@tandem/db/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUPERVISOR_MESSAGES } from '../services/agents.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';
import { JSON_BUDGET_MESSAGE } from '../http/json-budget.js';
import { MESSAGE_BODY_LIMIT } from './agents.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Hostile text, limits and supervisor rules on the agent-creation and message bodies. */
describe.each(testDatabaseKinds())('agent input on %s', (kind) => {
  const testApp = useTestApp(kind);
  let app: TestApp;
  let admin: TestUser;
  let otherAdmin: TestUser;
  let member: TestUser;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

  beforeAll(async () => {
    app = testApp();
    const acme = (role: 'admin' | 'member') => [
      { id: 21, name: 'acme', role, repos: ['acme/webapp', 'acme/api'] },
    ];
    admin = await app.signIn({ username: 'root', admin: true, installations: acme('member') });
    otherAdmin = await app.signIn({ username: 'grace', admin: true, installations: acme('member') });
    member = await app.signIn({ username: 'bob', installations: acme('admin') });
  });

  const create = (user: TestUser, payload: Record<string, unknown>, repo = 'acme/webapp') =>
    app.server.inject({
      method: 'POST',
      url: `/api/agents/create-agent/${repo}`,
      headers: as(user),
      payload,
    });
  const created = async (user: TestUser, payload: Record<string, unknown>, repo?: string) => {
    const res = await create(user, payload, repo);
    expect(res.statusCode, res.body).toBe(200);
    return createAgentResponseSchema.parse(res.json());
  };
  const send = (user: TestUser, agentId: string, payload: Record<string, unknown> | string) =>
    app.server.inject({
      method: 'POST',
      url: `/api/agent/message?trajectory_id=${agentId}`,
      headers: { ...as(user), 'content-type': 'application/json' },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  it('strips NUL from messages and replaces lone surrogates, so nothing unreadable is stored', async () => {
    // Raw JSON: "\u0000" and a lone "\ud800" are valid JSON escapes that Postgres refuses.
    const agent = await created(member, { body: 'Fix\u0000 the bug' });
    const res = await send(
      member,
      agent.agent_id,
      '{"message":"hi\\u0000 there \\ud800!","comments":[{"path":"a.ts","line":1,"body":"x\\u0000y\\udfff"}]}',
    );
    expect(res.statusCode, res.body).toBe(200);
    const conversation = conversationResponseSchema.parse(
      (
        await app.server.inject({
          url: `/api/agent/conversation?trajectory_id=${agent.agent_id}`,
          headers: as(member),
        })
      ).json(),
    );
    expect(conversation.conversation.map((item) => item.message)).toEqual([
      'Fix the bug',
      'hi there \ufffd!',
    ]);
    expect(conversation.conversation[1]!.review_comments).toEqual([
      { path: 'a.ts', line: 1, body: 'xy\ufffd' },
    ]);

    const title = await app.server.inject({
      method: 'POST',
      url: '/api/agent/update-title',
      headers: as(member),
      payload: { trajectory_id: agent.agent_id, title: 'Nice\u0000 title' },
    });
    expect(title.json()).toMatchObject({ title: 'Nice title' });
  });

  it('refuses NUL and lone surrogates in identifiers with a 422 naming the field', async () => {
    const agent = await created(member, { body: 'Work' });
    const branch = await create(member, { body: 'x', base_branch: 'ma\u0000in' });
    expect(branch.statusCode).toBe(422);
    expect(branch.json().detail[0]).toMatchObject({ loc: ['body', 'base_branch'] });

    const comment = await send(
      member,
      agent.agent_id,
      '{"comments":[{"path":"a\\ud800.ts","line":1,"body":"b"}]}',
    );
    expect(comment.statusCode).toBe(422);
    expect(comment.json().detail).toEqual([
      { loc: ['body', 'comments', 0, 'path'], msg: TEXT_MESSAGES.surrogate, type: 'string_unicode' },
    ]);
    const search = await app.server.inject({ url: '/api/agents?search=creator:%00', headers: as(member) });
    expect(search.statusCode).toBe(422);
    expect(search.json().detail[0]).toMatchObject({ loc: ['query', 'search'], type: 'string_nul' });
    const path = await app.server.inject({ url: '/api/agents/acme/web%00app', headers: as(member) });
    expect(path.statusCode).toBe(422);
    // Nothing of the refused requests was stored.
    const items = await app.database.db
      .select()
      .from(conversationItems)
      .where(eq(conversationItems.agentId, agent.agent_id));
    expect(items).toHaveLength(1);
  });

  it('keeps review comments to their known fields', async () => {
    const agent = await created(member, { body: 'Review me' });
    const res = await send(member, agent.agent_id, {
      comments: [{ path: 'a.ts', line: 2, body: 'Why?', extra: { deep: [[[1]]] } }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const [, item] = await app.database.db
      .select()
      .from(conversationItems)
      .where(eq(conversationItems.agentId, agent.agent_id))
      .orderBy(conversationItems.timestamp);
    expect(item!.data.review_comments).toEqual([{ path: 'a.ts', line: 2, body: 'Why?' }]);
    const wrong = await send(member, agent.agent_id, {
      comments: [{ path: 'a.ts', line: 'two', body: 'x' }],
    });
    expect(wrong.statusCode).toBe(422);
    // A wrong type is named as such (FastAPI's `*_type`), not reported as missing.
    expect(wrong.json().detail).toEqual([
      { loc: ['body', 'comments', 0, 'line'], msg: expect.any(String), type: 'number_type' },
    ]);
  });

  it(`caps images at ${MAX_IMAGES_PER_MESSAGE} per message and 5 MB each, and the body size`, async () => {
    const image = { data: PNG.toString('base64'), type: 'image/png', name: 'dot.png' };
    const agent = await created(member, {
      body: 'Look',
      images: Array.from({ length: MAX_IMAGES_PER_MESSAGE }, () => image),
    });
    const tooMany = await send(member, agent.agent_id, {
      images: Array.from({ length: MAX_IMAGES_PER_MESSAGE + 1 }, () => image),
    });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().detail[0]).toMatchObject({ loc: ['body', 'images'], msg: IMAGE_MESSAGES.count });

    // Just over 5 MB decoded: the schema lets the text through, decoding refuses it.
    const big = { ...image, data: Buffer.alloc(5 * 1024 * 1024 + 1).toString('base64') };
    const tooBig = await send(member, agent.agent_id, { images: [big] });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().detail).toBe(IMAGE_MESSAGES.size);
    // Far over: refused by the schema before anything is decoded.
    const huge = { ...image, data: 'A'.repeat(8 * 1024 * 1024) };
    expect((await send(member, agent.agent_id, { images: [huge] })).json().detail[0].msg).toBe(
      IMAGE_MESSAGES.size,
    );

    // One request cannot make the server hold more than the limit (~75 MB).
    expect(MESSAGE_BODY_LIMIT).toBeLessThan(80 * 1024 * 1024);
    const overLimit = await send(member, agent.agent_id, `{"message":"${'x'.repeat(MESSAGE_BODY_LIMIT)}"}`);
    expect(overLimit.statusCode).toBe(413);
    // Within the byte limit but millions of tiny values: refused before parsing.
    const tiny = await send(member, agent.agent_id, `{"comments":[${'{},'.repeat(3_000_000)}{}]}`);
    expect(tiny.statusCode).toBe(413);
    expect(tiny.json()).toEqual({ detail: JSON_BUDGET_MESSAGE, code: 'payload_too_large' });
    // Other routes keep the 2 MiB default.
    const title = await app.server.inject({
      method: 'POST',
      url: '/api/agent/update-title',
      headers: { ...as(member), 'content-type': 'application/json' },
      payload: `{"title":"${'x'.repeat(3 * 1024 * 1024)}"}`,
    });
    expect(title.statusCode).toBe(413);
    // A body shorter than its Content-Length is a broken request: 400, with a message that says so.
    const short = await app.server.inject({
      method: 'POST',
      url: `/api/agent/message?trajectory_id=${agent.agent_id}`,
      headers: { ...as(member), 'content-type': 'application/json', 'content-length': '3' },
      payload: '{"message":"hello"}',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({
      detail: 'Request body length does not match Content-Length',
      code: 'bad_request',
    });
  });

  it('checks base_branch against the spec rules and a 255-character cap', async () => {
    const long = await create(member, { body: 'x', base_branch: 'b'.repeat(256) });
    expect(long.statusCode).toBe(422);
    expect(long.json().detail[0]).toMatchObject({ loc: ['body', 'base_branch'], msg: BRANCH_MESSAGES.long });
    for (const bad of ['a b', 'a..b', '-x', 'x/', 'new\nline', 'tab\there', '@']) {
      const res = await create(member, { body: 'x', base_branch: bad });
      expect(res.json().detail[0]?.msg, bad).toBe(BRANCH_MESSAGES.invalid);
    }
    const ok = await created(member, { body: 'x', base_branch: `feature/${'b'.repeat(240)}` });
    const [row] = await app.database.db.select().from(agents).where(eq(agents.id, ok.agent_id));
    expect(row!.baseBranch).toBe(`feature/${'b'.repeat(240)}`);
  });

  it("assigns a supervisor only for admins, and only the admin's own supervisor in the repository", async () => {
    const supervisor = await created(admin, { body: 'Supervise', is_supervisor: true });
    const editor = await created(admin, { body: 'Just an editor' });
    const theirs = await created(otherAdmin, { body: 'Theirs', is_supervisor: true });
    const elsewhere = await created(admin, { body: 'Other repo', is_supervisor: true }, 'acme/api');

    const byMember = await create(member, { body: 'x', supervisor_id: supervisor.agent_id });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().detail).toBe(SUPERVISOR_MESSAGES.adminOnly);
    for (const id of [editor.agent_id, theirs.agent_id, elsewhere.agent_id, crypto.randomUUID()]) {
      const res = await create(admin, { body: 'x', supervisor_id: id });
      expect(res.statusCode, id).toBe(422);
      expect(res.json().detail).toBe(SUPERVISOR_MESSAGES.notFound);
    }
    const nested = await create(admin, {
      body: 'x',
      is_supervisor: true,
      supervisor_id: supervisor.agent_id,
    });
    expect(nested.json().detail).toBe(SUPERVISOR_MESSAGES.nested);
    expect((await create(admin, { body: 'x', supervisor_id: 'not-a-uuid' })).statusCode).toBe(422);

    const assigned = await created(admin, { body: 'Report to it', supervisor_id: supervisor.agent_id });
    const [row] = await app.database.db.select().from(agents).where(eq(agents.id, assigned.agent_id));
    expect(row!.supervisorId).toBe(supervisor.agent_id);
  });
});
