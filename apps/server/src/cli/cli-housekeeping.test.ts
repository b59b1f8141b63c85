import { agentListSchema, createAgentResponseSchema } from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/agent-harness.js';
import type { RecordingRunner } from '../testing/test-app.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';
import { runCli, cliTokenFor, startCliServer } from './cli-harness.js';

/**
 * The CLI's commands that change an agent without running it (the runner only records what was
 * asked), against a real server.
 */
describe('the tandem CLI: pause, rename, list, archive', () => {
  const testApp = useTestApp();
  const home = tempDir('tandem-cli-home-');
  let app: TestApp;
  let ada: TestUser;
  let url: string;
  let agentId: string;
  let token: string;
  // Signed in through TANDEM_TOKEN: the stored-config path is cli-sign-in.test.ts's.
  const cli = (args: string[]) => runCli(['--url', url, ...args], { home, env: { TANDEM_TOKEN: token } });
  const cliToken = () => cliTokenFor(app, ada);

  beforeAll(async () => {
    app = testApp();
    ({ ada, url } = await startCliServer(app));
    token = await cliToken();
    const created = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: { authorization: `Bearer ${ada.token}` },
      payload: { body: 'Please add subtract' },
    });
    agentId = createAgentResponseSchema.parse(created.json()).agent_id;
    await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: { authorization: `Bearer ${ada.token}` },
      payload: { body: 'Another task' },
    });
  });

  it('pauses an agent', async () => {
    expect(await cli(['pause', agentId])).toMatchObject({ code: 0, stdout: `Paused ${agentId}.\n` });
    expect((app.runner as RecordingRunner).interrupted).toEqual([agentId]);
  });

  it('renames, lists, archives and unarchives', async () => {
    expect(await cli(['rename', agentId, 'Subtract helper'])).toMatchObject({
      code: 0,
      stdout: `Renamed ${agentId} to "Subtract helper".\n`,
    });
    const bad = await cli(['rename', agentId, 'x']);
    expect(bad).toMatchObject({ code: 2, stderr: 'tandem: Title must be between 2 and 200 characters\n' });
    const table = await cli(['list', '--repo', 'acme/webapp']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`${agentId}\\s+Subtract helper\\s+acme/webapp\\s+pending`));
    const ids = async (...args: string[]) =>
      agentListSchema
        .parse(JSON.parse((await cli(['list', '--json', ...args])).stdout))
        .agents.map((a) => a.id);
    expect(await cli(['archive', agentId])).toMatchObject({ code: 0, stdout: 'Agent archived\n' });
    expect(await ids()).not.toContain(agentId);
    expect(await ids('--archived')).toContain(agentId);
    expect(await cli(['unarchive', agentId])).toMatchObject({ code: 0, stdout: 'Agent unarchived\n' });
    expect(await ids()).toContain(agentId);
    expect(await ids('--limit', '1', '--page', '2')).toHaveLength(1);
    expect(await ids('--search', 'Subtract')).toEqual([agentId]);
  });
});
