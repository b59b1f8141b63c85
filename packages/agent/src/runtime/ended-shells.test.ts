import { agents, conversationItems } from '@tandem/db';
import { createTestDatabase, type TestDatabase } from '@tandem/db/testing';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endOrphanedShells, SANDBOX_GONE_MESSAGE } from './ended-shells.js';
import { appendItem } from './items.js';
import { agentRowVersion, insertTestAgents } from './test-support.js';

describe('endOrphanedShells: shells of a sandbox that is gone stop showing as running', () => {
  let database: TestDatabase;
  const agentIds: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    const port = {
      internal_port: 3000,
      url: null,
      script_path: null,
      tandem_pid: 11,
      active: true,
      host: '127.0.0.1',
    };
    agentIds.push(...(await insertTestAgents(database.db, 2, { curPorts: [port] })));
  });
  afterAll(async () => {
    await database?.destroy();
  });

  async function shell(agentId: string, pid: number, ended: boolean): Promise<string> {
    const { actionUuid } = await appendItem(database.db, agentId, {
      itemType: 'shell',
      pid,
      data: { active: true, command: 'npm run dev', forwarded_ports: [] },
    });
    if (ended) {
      await appendItem(database.db, agentId, {
        itemType: 'shell_message',
        pid,
        actionUuid,
        data: { message_type: 'shutdown', message: 'Process exited with code 0' },
      });
    }
    return actionUuid;
  }

  const shutdowns = (agentId: string, actionUuid: string) =>
    database.db
      .select({ data: conversationItems.data })
      .from(conversationItems)
      .where(
        and(
          eq(conversationItems.agentId, agentId),
          eq(conversationItems.actionUuid, actionUuid),
          eq(conversationItems.itemType, 'shell_message'),
        ),
      );

  it("ends one agent's open shells once, leaves finished ones and other agents alone", async () => {
    const [a, b] = agentIds as [string, string];
    const open = await shell(a, 11, false);
    const done = await shell(a, 12, true);
    const other = await shell(b, 13, false);

    expect(await endOrphanedShells(database.db, { agentId: a })).toBe(1);
    expect((await shutdowns(a, open)).map((r) => r.data)).toEqual([
      { message_type: 'shutdown', message: SANDBOX_GONE_MESSAGE },
    ]);
    expect(await shutdowns(a, done)).toHaveLength(1);
    expect(await shutdowns(b, other)).toHaveLength(0);
    const [row] = await database.db.select().from(agents).where(eq(agents.id, a));
    expect(row!.curPorts).toEqual([]);
    // Again: nothing left to end, and the row is not written again (xmin: its version's writer).
    const before = await agentRowVersion(database.db, a);
    expect(await endOrphanedShells(database.db, { agentId: a })).toBe(0);
    expect(await agentRowVersion(database.db, a)).toBe(before);

    // A process start-up ends every agent's open shells.
    expect(await endOrphanedShells(database.db, { since: new Date(Date.now() - 60_000) })).toBe(1);
    expect(await shutdowns(b, other)).toHaveLength(1);
    const [rowB] = await database.db.select().from(agents).where(eq(agents.id, b));
    expect(rowB!.curPorts).toEqual([]);
  });
});
