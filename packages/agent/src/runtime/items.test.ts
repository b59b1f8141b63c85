import { agents, conversationItems } from '@tandem/db';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '@tandem/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendItem } from './items.js';
import { insertTestAgents } from './test-support.js';

describe.each(testDatabaseKinds())('appendItem on %s', (kind) => {
  let database: TestDatabase;
  let agentId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    [agentId] = (await insertTestAgents(database.db, 1)) as [string];
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const agentTimes = async () => {
    const [row] = await database.db
      .select({ latest: agents.latestTimestamp, active: agents.lastActive })
      .from(agents)
      .where(eq(agents.id, agentId));
    return row!;
  };

  it('writes the item and moves the agent to its timestamp together', async () => {
    const { actionUuid, timestamp } = await appendItem(database.db, agentId, {
      itemType: 'message',
      data: { message: 'Hello\u0000 there', username: 'tandem', role: 'assistant' },
    });
    const items = await database.db
      .select()
      .from(conversationItems)
      .where(eq(conversationItems.actionUuid, actionUuid));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ agentId, timestamp, itemType: 'message', pid: null, userId: null });
    // jsonb refuses NUL: the stored text has it replaced.
    expect(items[0]!.data).toMatchObject({ username: 'tandem', role: 'assistant' });
    expect(String(items[0]!.data.message)).not.toContain('\u0000');
    // The item's timestamp has microseconds; the agent's columns are read back as Dates.
    const at = new Date(timestamp).toISOString();
    const times = await agentTimes();
    expect(times.latest?.toISOString()).toBe(at);
    expect(times.active?.toISOString()).toBe(at);
  });

  it('moves nothing when the item cannot be written', async () => {
    const before = await agentTimes();
    // Not a UUID: the item's insert fails, and the agent's timestamps must not move without it.
    await expect(
      appendItem(database.db, agentId, { itemType: 'action', actionUuid: 'not-a-uuid', data: {} }),
    ).rejects.toThrow();
    expect(await agentTimes()).toEqual(before);
    const all = await database.db
      .select({ id: conversationItems.id })
      .from(conversationItems)
      .where(eq(conversationItems.agentId, agentId));
    expect(all).toHaveLength(1);
  });

  it('writes an item with a dedupe key once', async () => {
    const first = await appendItem(database.db, agentId, {
      itemType: 'commit',
      dedupeKey: 'call-1',
      data: { sha: 'abc' },
    });
    const again = await appendItem(database.db, agentId, {
      itemType: 'commit',
      dedupeKey: 'call-1',
      data: { sha: 'abc' },
    });
    expect(again).toEqual(first);
    const commits = await database.db
      .select({ id: conversationItems.id })
      .from(conversationItems)
      .where(eq(conversationItems.actionUuid, first.actionUuid));
    expect(commits).toHaveLength(1);
  });

  it('moves latest_timestamp forward even when it already holds a later time', async () => {
    // Writers run concurrently (the run, shells, CI events): one whose time is earlier than the
    // agent's must still move it, or open workspaces never read the newest page again.
    const ahead = new Date(Date.now() + 60_000);
    await database.db.update(agents).set({ latestTimestamp: ahead }).where(eq(agents.id, agentId));
    const { timestamp } = await appendItem(database.db, agentId, {
      itemType: 'message',
      data: { message: 'later in the feed, earlier on the clock', username: 'tandem', role: 'assistant' },
    });
    const times = await agentTimes();
    expect(times.latest?.getTime()).toBe(ahead.getTime() + 1);
    // Last active is when it happened.
    expect(times.active?.toISOString()).toBe(new Date(timestamp).toISOString());
    await database.db
      .update(agents)
      .set({ latestTimestamp: new Date(timestamp) })
      .where(eq(agents.id, agentId));
  });
});
