import { agents, spiceMessages } from '@tandem/db';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '@tandem/db/testing';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFedMessage } from './fed-messages.js';
import { loadHistory } from './history.js';
import { insertTestAgents } from './test-support.js';

/**
 * The first messages of agents that start together are stored as one insert (issue 15): each row
 * as its own insert would have stored it, and one agent's failure fails that agent only.
 */
describe.each(testDatabaseKinds())('appendFedMessage on %s', (kind) => {
  let database: TestDatabase;
  let ids: string[];
  const statements: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind, { logQuery: (query) => statements.push(query) });
    ids = await insertTestAgents(database.db, 4);
  });
  afterAll(() => database.destroy());

  const inserts = () => statements.filter((q) => /^insert into "spice_messages"/.test(q));

  it('stores the messages fed together in one statement, each exactly', async () => {
    statements.length = 0;
    // Text a JSON splice could get wrong: quotes, backslashes, a closing brace, non-ASCII, NUL.
    const texts = ['plain', 'a "quoted" \\ back}slash ]', 'ünïcødé ☃ 𝄞', 'nul \u0000 here'];
    const uuids = ids.map(() => crypto.randomUUID());
    const stored = await Promise.all(
      ids.map((id, n) =>
        appendFedMessage(
          database.db,
          id,
          { role: 'user', content: [{ type: 'text', text: texts[n]! }] },
          uuids[n]!,
        ),
      ),
    );
    // The first went at once; the three queued behind it went as one.
    expect(inserts()).toHaveLength(2);
    for (const [n, id] of ids.entries()) {
      const [row] = await database.db
        .select()
        .from(spiceMessages)
        .where(eq(spiceMessages.agentId, id))
        .orderBy(asc(spiceMessages.timestamp));
      expect(row).toMatchObject({
        role: 'user',
        actionUuid: uuids[n],
        timestamp: stored[n]!.timestamp,
        responseStats: null,
        summarizedAt: null,
      });
      // What the caller was given is what a read gives back.
      expect(row!.content).toEqual(JSON.parse(stored[n]!.json));
      expect(await loadHistory(database.db, id)).toEqual([
        { role: 'user', content: JSON.parse(stored[n]!.json) },
      ]);
    }
    // NUL, which jsonb refuses, was made storable before the insert, as for every spice row.
    expect(stored[3]!.json).not.toContain('\\u0000');
  });

  it('fails only the caller whose row cannot be stored', async () => {
    statements.length = 0;
    const gone = crypto.randomUUID();
    const results = await Promise.allSettled(
      [ids[0]!, ids[1]!, gone, ids[2]!].map((id) =>
        appendFedMessage(database.db, id, { role: 'user', content: 'again' }, crypto.randomUUID()),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    for (const id of [ids[0]!, ids[1]!, ids[2]!]) {
      const rows = await database.db.select().from(spiceMessages).where(eq(spiceMessages.agentId, id));
      expect(rows.map((r) => r.content)).toContain('again');
    }
    expect(await database.db.select().from(agents).where(eq(agents.id, gone))).toEqual([]);
  });
});
