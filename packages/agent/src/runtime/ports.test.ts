import { agents } from '@tandem/db';
import { createTestDatabase, type TestDatabase } from '@tandem/db/testing';
import { forwardedPortsOf } from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PortTracker } from './ports.js';
import { agentRowVersion, insertTestAgents } from './test-support.js';

describe("PortTracker: an agent's cur_ports follow all of its shells", () => {
  let database: TestDatabase;
  let agentId: string;
  const ports = async () => {
    const [row] = await database.db.select().from(agents).where(eq(agents.id, agentId));
    return forwardedPortsOf(row!.curPorts).map((p) => [p.internal_port, p.tandem_pid, p.host]);
  };
  const shell = (pid: number) => ({
    actionUuid: crypto.randomUUID(),
    pid,
    command: `serve ${pid}`,
    scriptPath: null,
  });

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    [agentId] = (await insertTestAgents(database.db)) as [string];
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it('keeps every shell’s ports, drops an exited shell’s, and empties on clear', async () => {
    const tracker = new PortTracker(database.db, agentId, '10.0.0.5');
    const web = shell(100);
    const api = shell(200);
    await tracker.update(web, [5173]);
    await tracker.update(api, [3000, 9229]);
    // Before, the second shell's report replaced the first's.
    expect(await ports()).toEqual([
      [3000, 200, '10.0.0.5'],
      [5173, 100, '10.0.0.5'],
      [9229, 200, '10.0.0.5'],
    ]);
    await tracker.update(api, []);
    expect(await ports()).toEqual([[5173, 100, '10.0.0.5']]);
    await tracker.clear();
    expect(await ports()).toEqual([]);
  });

  it('writes the row only when the list changes', async () => {
    const version = () => agentRowVersion(database.db, agentId);
    const tracker = new PortTracker(database.db, agentId, '10.0.0.5');
    await tracker.clear();
    const empty = await version();
    await tracker.update(shell(300), []);
    await tracker.clear();
    expect(await version()).toBe(empty);
    const web = shell(400);
    await tracker.update(web, [8080]);
    const serving = await version();
    expect(serving).not.toBe(empty);
    await tracker.update(web, [8080]);
    expect(await version()).toBe(serving);
    expect(await ports()).toEqual([[8080, 400, '10.0.0.5']]);
    await tracker.clear();
    expect(await ports()).toEqual([]);
  });

  it('forwards the ports of a namespaced sandbox and closes forwards no shell serves any more', async () => {
    // A forwarder that hands out host ports the way AgentNetwork does, recording what is open.
    const open = new Map<number, number>();
    let next = 40_000;
    const forwarder = {
      forward: async (port: number) => open.get(port) ?? (open.set(port, next++), open.get(port)!),
      unforward: async (port: number) => void open.delete(port),
    };
    const tracker = new PortTracker(database.db, agentId, '127.0.0.1', forwarder);
    const hostPorts = async () => {
      const [row] = await database.db.select().from(agents).where(eq(agents.id, agentId));
      return forwardedPortsOf(row!.curPorts).map((p) => [p.internal_port, p.host_port]);
    };
    const web = shell(300);
    const api = shell(400);
    await Promise.all([tracker.update(web, [5173]), tracker.update(api, [5173, 3000])]);
    expect(await hostPorts()).toEqual([
      [3000, open.get(3000)],
      [5173, open.get(5173)],
    ]);
    expect(open.size).toBe(2);
    // 5173 is still served by the web shell: only 3000's forward closes.
    await tracker.update(api, []);
    expect([...open.keys()]).toEqual([5173]);
    expect(await hostPorts()).toEqual([[5173, open.get(5173)]]);
    await tracker.clear();
    expect(open.size).toBe(0);
    expect(await hostPorts()).toEqual([]);
  });
});
