import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { conversationItems, spiceMessages } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import {
  agentListSchema,
  agentMetadataSchema,
  apiTimestampSchema,
  CONVERSATION_PAGE_SIZE,
  conversationResponseSchema,
  createAgentResponseSchema,
  latestTimestampSchema,
  type ConversationResponse,
} from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

/**
 * Every timestamp the API returns is ISO 8601 UTC, and the oldest one of a conversation page, sent
 * back as `before=`, pages to the very first item: no 422, no item lost or repeated, even when many
 * items share a millisecond and differ only in microseconds.
 */
describe.each(testDatabaseKinds())('agent timestamps on %s', (kind) => {
  const testApp = useTestApp(kind);
  let app: TestApp;
  let ada: TestUser;
  let root: TestUser;
  let eve: TestUser;
  let agentId: string;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
  const ITEMS = CONVERSATION_PAGE_SIZE * 2 + 17;

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({
      username: 'ada',
      installations: [{ id: 11, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
    root = await app.signIn({ username: 'root', admin: true });
    eve = await app.signIn({ username: 'eve', installations: [{ id: 12, name: 'eve', role: 'admin' }] });
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: as(ada),
      payload: { body: 'First message' },
    });
    agentId = createAgentResponseSchema.parse(res.json()).agent_id;
    // Items 4 µs apart after the first message: pages often split inside one millisecond.
    const start = Date.now() + 1000;
    const at = (i: number) => {
      const micros = BigInt(start) * 1000n + BigInt(i * 4);
      const base = new Date(Number(micros / 1000n)).toISOString();
      return base.replace('Z', `${String(micros % 1000n).padStart(3, '0')}Z`);
    };
    await app.database.db.insert(conversationItems).values(
      Array.from({ length: ITEMS }, (_, i) => ({
        agentId,
        timestamp: at(i),
        itemType: 'message',
        actionUuid: randomUUID(),
        actionType: 'agent_message',
        data: { message: `item ${i}` },
      })),
    );
    await app.database.db.insert(spiceMessages).values(
      Array.from({ length: ITEMS }, (_, i) => ({
        agentId,
        timestamp: at(i),
        role: 'assistant',
        content: [{ type: 'text', text: `spice ${i}` }],
      })),
    );
  });

  const page = async (user: TestUser, before?: string): Promise<ConversationResponse> => {
    const query = before ? `&before=${encodeURIComponent(before)}` : '';
    const res = await app.server.inject({
      url: `/api/agent/conversation?trajectory_id=${agentId}${query}`,
      headers: as(user),
    });
    expect(res.statusCode, res.body).toBe(200);
    return conversationResponseSchema.parse(res.json());
  };

  it('stores the driver text but reads ISO 8601 UTC with microseconds', async () => {
    const utc = sql<string>`to_char(${conversationItems.timestamp} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
    const rows = await app.database.db
      .select({
        raw: sql<string>`${conversationItems.timestamp}::text`,
        utc,
        iso: conversationItems.timestamp,
      })
      .from(conversationItems)
      .where(sql`${conversationItems.agentId} = ${agentId}`);
    expect(rows.length).toBe(ITEMS + 1);
    for (const row of rows) {
      expect(row.raw).not.toContain('T');
      expect(row.iso).toBe(row.utc);
    }
  });

  it('pages with before= from the newest item to the first one', async () => {
    const seen: string[] = [];
    let before: string | undefined;
    let pages = 0;
    for (;;) {
      const result = await page(ada, before);
      pages += 1;
      for (const item of result.conversation)
        expect(apiTimestampSchema.parse(item.timestamp)).toMatch(/\.\d{6}Z$/);
      seen.unshift(...result.conversation.map((item) => String(item.message)));
      if (!result.has_more) break;
      before = result.oldest_timestamp!;
      expect(before).toMatch(/Z$/);
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(['First message', ...Array.from({ length: ITEMS }, (_, i) => `item ${i}`)]);
  });

  it('gives admins the spice messages of each page window, in ISO form', async () => {
    const first = await page(root);
    const older = await page(root, first.oldest_timestamp!);
    for (const item of [...first.spice, ...older.spice]) apiTimestampSchema.parse(item.timestamp);
    const ids = new Set([...first.spice, ...older.spice].map((item) => item.id));
    expect(ids.size).toBe(first.spice.length + older.spice.length);
    expect(first.spice.length).toBeGreaterThan(0);
  });

  it('accepts a before= with an offset, and refuses Postgres text with a 422', async () => {
    const newest = await page(ada);
    const offset = new Date(Date.parse(newest.oldest_timestamp!)).toISOString().replace('Z', '+00:00');
    const res = await app.server.inject({
      url: `/api/agent/conversation?trajectory_id=${agentId}&before=${encodeURIComponent(offset)}`,
      headers: as(ada),
    });
    expect(res.statusCode).toBe(200);
    const bad = await app.server.inject({
      url: `/api/agent/conversation?trajectory_id=${agentId}&before=${encodeURIComponent('2026-11-13 20:04:09.825239+00')}`,
      headers: as(ada),
    });
    expect(bad.statusCode).toBe(422);
  });

  it('answers latest-timestamp only to those who may see the agent', async () => {
    const poll = (user: TestUser, id = agentId) =>
      app.server.inject({ url: `/api/agent/latest-timestamp?trajectory_id=${id}`, headers: as(user) });
    expect((await poll(root)).statusCode).toBe(200);
    expect((await poll(eve)).statusCode).toBe(404);
    expect((await poll(ada, randomUUID())).statusCode).toBe(404);
    expect((await poll(ada, 'not-a-uuid')).statusCode).toBe(422);
    const anonymous = await app.server.inject({
      url: `/api/agent/latest-timestamp?trajectory_id=${agentId}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('returns ISO 8601 UTC from latest-timestamp, metadata and the agent list', async () => {
    const latest = await app.server.inject({
      url: `/api/agent/latest-timestamp?trajectory_id=${agentId}`,
      headers: as(ada),
    });
    expect(latestTimestampSchema.parse(latest.json()).latest_timestamp).toMatch(/Z$/);
    const meta = await app.server.inject({
      url: `/api/agent/metadata?trajectory_id=${agentId}`,
      headers: as(ada),
    });
    agentMetadataSchema.parse(meta.json());
    const list = await app.server.inject({ url: '/api/agents', headers: as(ada) });
    expect(agentListSchema.parse(list.json()).agents.length).toBe(1);
  });
});
