import type { EmbeddedRunner } from '@tandem/agent';
import {
  startChatCompletionsServer,
  type ChatCompletionsServer,
  type FakeChatResponse,
} from '@tandem/agent/testing';
import { conversationResponseSchema, createAgentResponseSchema } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADD_SUBTRACT_EDIT } from '../testing/agent-harness.js';
import { signInAda } from '../testing/scripted-agents.js';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

/**
 * The same task as agent-run.test.ts, but the model is a `local/…` model behind a local HTTP server
 * speaking the chat-completions protocol, so the real OpenAI-compatible provider, its tool-call
 * wire format and its usage accounting are on the path.
 */
const steps: FakeChatResponse[] = [
  {
    content: 'Let me look at the library.',
    tool_calls: [{ name: 'view_files', arguments: { files: [{ path: 'src/math.js' }] } }],
  },
  { tool_calls: [{ name: 'edit_file', arguments: ADD_SUBTRACT_EDIT }] },
  { tool_calls: [{ name: 'run_command', arguments: { command: 'npm test' } }] },
  { tool_calls: [{ name: 'commit_and_push', arguments: { message: 'Add subtract' } }] },
  {
    tool_calls: [{ name: 'open_pull_request', arguments: { title: 'Add subtract', body: 'Adds subtract.' } }],
  },
  {
    content: 'Done.',
    tool_calls: [{ name: 'task_complete', arguments: { summary: 'Added subtract and opened a PR.' } }],
  },
];

const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

interface WireMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

describe('an agent run through the OpenAI-compatible provider', () => {
  let llm: ChatCompletionsServer;
  let app: TestApp;
  let ada: TestUser;

  beforeAll(async () => {
    llm = await startChatCompletionsServer({
      apiKey: 'local-key',
      respond: (_request, index) => {
        const step = steps[index];
        if (!step) throw new Error(`unexpected model call ${index}`);
        return { ...step, usage: { prompt_tokens: 1200, completion_tokens: 80 } };
      },
    });
    app = await createTestApp('pglite', {
      codeHost: true,
      agents: { models: { openaiCompatible: { url: llm.url, apiKey: 'local-key', models: ['coder'] } } },
    });
    await app.server.ready();
    ada = await signInAda(app);
  });

  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  it('runs the whole task with tool calls over the wire', async () => {
    const headers = { authorization: `Bearer ${ada.token}` };
    const models = (await app.server.inject({ url: '/api/models', headers })).json() as {
      models: { key: string; label: string; available: boolean }[];
    };
    expect(models.models.find((m) => m.key === 'local/coder')).toMatchObject({
      label: 'coder (local)',
      available: true,
    });

    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers,
      payload: {
        body: 'Add a subtract function',
        model: 'local/coder',
        images: [{ data: PNG_BASE64, type: 'image/png', name: 'sketch.png' }],
      },
    });
    expect(res.statusCode).toBe(200);
    const { agent_id } = createAgentResponseSchema.parse(res.json());
    await (app.runner as EmbeddedRunner).idle(agent_id);

    const { conversation, spice } = conversationResponseSchema.parse(
      (await app.server.inject({ url: `/api/agent/conversation?trajectory_id=${agent_id}`, headers })).json(),
    );
    expect(conversation.filter((i) => i.action_type === 'ErrorEvent')).toEqual([]);
    expect(spice).toEqual([]); // the model's context is for admins only
    const kinds = conversation
      .map((i) => (i.item_type === 'action' ? i.action_type : i.item_type))
      .filter((k) => k !== 'shell_message');
    expect(kinds).toEqual([
      'message',
      'message',
      'view',
      'edit',
      'shell',
      'commit',
      'number_lifecycle',
      'message',
      'TaskCompleteEvent',
    ]);
    const texts = conversation.filter((i) => i.item_type === 'message').map((i) => i.message);
    expect(texts).toEqual(['Add a subtract function', 'Let me look at the library.', 'Done.']);

    // Every model call after the first carried the previous tool's result back to the model.
    expect(llm.requests).toHaveLength(steps.length);
    const sent = llm.requests as {
      model: string;
      messages: WireMessage[];
      tools?: { function: { name: string } }[];
    }[];
    expect(sent[0]!.model).toBe('coder');
    // The attached image reaches the model as an image part of the first user message.
    const firstUser = sent[0]!.messages.find((m) => m.role === 'user')!;
    expect(firstUser.content).toEqual([
      { type: 'text', text: 'ada: Add a subtract function' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
    ]);
    expect(sent[0]!.tools?.map((t) => t.function.name)).toContain('commit_and_push');
    const toolResults = sent[2]!.messages.filter((m) => m.role === 'tool');
    expect(toolResults).toHaveLength(2);
    expect(JSON.stringify(toolResults[0]!.content)).toContain('export function multiply');

    const token = await app.codeHost!.issueInstallationToken(1000);
    const pulls = (await fetch(`${app.codeHost!.apiUrl}/repos/acme/webapp/pulls?state=open`, {
      headers: { authorization: `token ${token}` },
    }).then((r) => r.json())) as { title: string; head: { ref: string } }[];
    expect(pulls.find((p) => p.head.ref === 'tandem-1')).toMatchObject({ title: 'Add subtract' });

    const meta = (
      await app.server.inject({ url: `/api/agent/metadata?trajectory_id=${agent_id}`, headers })
    ).json() as { credits_spent: number; cur_tokens: number; status: string; model: string };
    // Self-hosted models cost the installation nothing, but their context is still measured.
    expect(meta).toMatchObject({ status: 'paused', model: 'local/coder', credits_spent: 0 });
    expect(meta.cur_tokens).toBeGreaterThanOrEqual(1200);
  });
});
