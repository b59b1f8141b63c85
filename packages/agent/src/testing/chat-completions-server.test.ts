import { generateText, streamText, tool, type ModelMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolveModel } from '../model/resolve.js';
import { toTokenUsage } from '../model/usage.js';
import {
  startChatCompletionsServer,
  type ChatCompletionsServer,
  type FakeChatResponse,
} from './chat-completions-server.js';

const tools = {
  run: tool({
    description: 'Run a shell command',
    inputSchema: z.object({ command: z.string(), timeout: z.number() }),
  }),
};

// First request: a tool call; any later one (it carries the tool result): text.
const toolThenText = (_request: unknown, index: number): FakeChatResponse =>
  index === 0
    ? {
        content: 'Running it.',
        tool_calls: [{ name: 'run', arguments: { command: 'npm test', timeout: 60 } }],
        usage: { prompt_tokens: 1200, completion_tokens: 30, cached_tokens: 1000 },
      }
    : { content: 'All 12 tests pass.', usage: { prompt_tokens: 1300, completion_tokens: 8 } };

let server: ChatCompletionsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function localModel(url: string, apiKey = 'k') {
  const resolved = resolveModel('local/qwen', { openaiCompatible: { url, models: ['qwen'], apiKey } });
  if (!resolved.ok) throw new Error(resolved.reason);
  return resolved.model;
}

function withResult(messages: ModelMessage[], toolCallId: string): ModelMessage[] {
  return [
    ...messages,
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId, toolName: 'run', output: { type: 'text', value: '12 passed' } },
      ],
    },
  ];
}

describe('chat-completions test server', () => {
  it('serves a tool call, then text once the tool result is sent back', async () => {
    server = await startChatCompletionsServer({ respond: toolThenText, apiKey: 'k' });
    const model = localModel(server.url);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Run the tests' }];

    const first = await generateText({ model, messages, tools });
    expect(first.text).toBe('Running it.');
    expect(first.finishReason).toBe('tool-calls');
    expect(first.toolCalls).toEqual([
      expect.objectContaining({
        toolCallId: 'call_0_0',
        toolName: 'run',
        input: { command: 'npm test', timeout: 60 },
      }),
    ]);
    expect(toTokenUsage(first.usage)).toEqual({
      inputTokens: 200,
      cachedTokens: 1000,
      outputTokens: 30,
      reasoningTokens: 0,
    });

    const second = await generateText({
      model,
      messages: withResult([...messages, ...first.response.messages], 'call_0_0'),
      tools,
    });
    expect(second.text).toBe('All 12 tests pass.');
    expect(second.finishReason).toBe('stop');
    expect(toTokenUsage(second.usage)).toEqual({
      inputTokens: 1300,
      cachedTokens: 0,
      outputTokens: 8,
      reasoningTokens: 0,
    });

    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]).toMatchObject({
      model: 'qwen',
      messages: [{ role: 'user', content: 'Run the tests' }],
      tools: [{ type: 'function', function: { name: 'run' } }],
    });
    expect(server.requests[1]).toMatchObject({
      messages: [
        { role: 'user' },
        { role: 'assistant', tool_calls: [{ id: 'call_0_0', function: { name: 'run' } }] },
        { role: 'tool', tool_call_id: 'call_0_0', content: '12 passed' },
      ],
    });
  });

  it('streams text, tool calls and usage', async () => {
    server = await startChatCompletionsServer({ respond: toolThenText, apiKey: 'k' });
    const model = localModel(server.url);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Run the tests' }];

    const first = streamText({ model, messages, tools });
    expect(await first.text).toBe('Running it.');
    expect(await first.finishReason).toBe('tool-calls');
    expect(await first.toolCalls).toEqual([
      expect.objectContaining({
        toolCallId: 'call_0_0',
        toolName: 'run',
        input: { command: 'npm test', timeout: 60 },
      }),
    ]);
    expect(toTokenUsage(await first.usage)).toEqual({
      inputTokens: 200,
      cachedTokens: 1000,
      outputTokens: 30,
      reasoningTokens: 0,
    });
    expect(server.requests[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });

    const deltas: string[] = [];
    const second = streamText({
      model,
      messages: withResult([...messages, ...(await first.response).messages], 'call_0_0'),
      tools,
    });
    for await (const delta of second.textStream) deltas.push(delta);
    expect(deltas.join('')).toBe('All 12 tests pass.');
    expect(deltas.length).toBeGreaterThan(1);
    expect((await second.usage).inputTokens).toBe(1300);
  });

  it('rejects a wrong API key with 401', async () => {
    server = await startChatCompletionsServer({ respond: toolThenText, apiKey: 'right' });
    const error: unknown = await generateText({ model: localModel(server.url, 'wrong'), prompt: 'hi' }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ statusCode: 401, message: 'Incorrect API key provided.' });
    expect(server.requests).toHaveLength(0);

    const res = await fetch(`${server.url}/models`);
    expect(res.status).toBe(401);
  });

  it('lists models and answers without auth when no key is configured', async () => {
    server = await startChatCompletionsServer({
      respond: () => ({ content: 'hi' }),
      models: ['qwen', 'llama3.3'],
    });
    const res = await fetch(`${server.url}/models`);
    expect(await res.json()).toMatchObject({ object: 'list', data: [{ id: 'qwen' }, { id: 'llama3.3' }] });

    const resolved = resolveModel('local/qwen', { openaiCompatible: { url: server.url, models: ['qwen'] } });
    if (!resolved.ok) throw new Error(resolved.reason);
    const result = await generateText({ model: resolved.model, prompt: 'hello' });
    expect(result.text).toBe('hi');
    expect(result.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
  });

  it('answers 404 elsewhere and 500 when respond throws', async () => {
    server = await startChatCompletionsServer({
      respond: () => {
        throw new Error('no answer scripted');
      },
    });
    expect((await fetch(`${server.url}/embeddings`, { method: 'POST', body: '{}' })).status).toBe(404);
    const res = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'qwen', messages: [] }),
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: { message: 'no answer scripted' } });
    const bad = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: 'nope' });
    expect(bad.status).toBe(400);
  });
});
