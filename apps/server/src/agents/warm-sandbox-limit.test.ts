import { prepareSandbox, type EmbeddedRunner } from '@tandem/agent';
import { startChatCompletionsServer, type ChatCompletionsServer } from '@tandem/agent/testing';
import { createAgentResponseSchema } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../testing/agent-harness.js';
import { signInAda } from '../testing/scripted-agents.js';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

/**
 * TANDEM_WARM_SANDBOXES bounds the paused agents' sandboxes a runner keeps warm: past it, the one
 * shelved longest ago is ended (its processes stopped), the newest stays for the next message.
 */
describe('warm sandboxes past TANDEM_WARM_SANDBOXES', () => {
  let llm: ChatCompletionsServer;
  let app: TestApp;
  let ada: TestUser;
  const prepared: string[] = [];
  const disposed: string[] = [];

  beforeAll(async () => {
    llm = await startChatCompletionsServer({ apiKey: 'local-key', respond: () => ({ content: 'Done.' }) });
    app = await createTestApp('pglite', {
      codeHost: true,
      agents: {
        warmSandboxes: 1,
        models: { openaiCompatible: { url: llm.url, apiKey: 'local-key', models: ['coder'] } },
        prepareSandbox: async (...args) => {
          const sandbox = await prepareSandbox(...args);
          prepared.push(sandbox.agentId);
          // Disposing a sandbox clears its port forwards: that is where the test sees it.
          const clear = sandbox.ports.clear.bind(sandbox.ports);
          sandbox.ports.clear = () => {
            disposed.push(sandbox.agentId);
            return clear();
          };
          return sandbox;
        },
      },
    });
    await app.server.ready();
    ada = await signInAda(app);
  });

  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  const create = async (body: string) => {
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: { authorization: `Bearer ${ada.token}` },
      payload: { body, model: 'local/coder' },
    });
    expect(res.statusCode).toBe(200);
    const id = createAgentResponseSchema.parse(res.json()).agent_id;
    // Idle means the run ended and its sandbox, prepared in the background, is on the shelf.
    await (app.runner as EmbeddedRunner).idle(id);
    return id;
  };

  it('ends the oldest warm sandbox when a newer one is shelved', { timeout: 60_000 }, async () => {
    const first = await create('Say done');
    expect(prepared).toEqual([first]);
    expect(disposed).toEqual([]);

    const second = await create('Say done again');
    expect(prepared).toEqual([first, second]);
    // Disposal runs beside the shelving (it stops shells and writes to the database first).
    await until('the first sandbox ended', async () => (disposed.length ? true : undefined), {
      timeoutMs: 20_000,
    });
    expect(disposed).toEqual([first]);
  });
});
