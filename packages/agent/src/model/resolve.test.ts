import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateText } from 'ai';
import { MODEL_CATALOG } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { providerOptionsFor } from './provider-options.js';
import { resolveModel, scriptedModelOption } from './resolve.js';

const keys = { anthropicApiKey: 'sk-ant', openaiApiKey: 'sk-openai', googleApiKey: 'g-key' };

describe('resolveModel', () => {
  it.each([
    ['sonnet-4-5', 'anthropic', 'claude-sonnet-4-5', 'anthropic.messages'],
    ['gpt-5-medium', 'openai', 'gpt-5', 'openai.responses'],
    ['gemini-2-5-pro', 'google', 'gemini-2.5-pro', 'google.generative-ai'],
  ])('resolves %s when the %s key is set', (key, _provider, modelId, providerName) => {
    const resolved = resolveModel(key, keys);
    if (!resolved.ok) throw new Error(resolved.reason);
    expect(resolved.key).toBe(key);
    expect(resolved.option.key).toBe(key);
    expect(resolved.model.modelId).toBe(modelId);
    expect(resolved.model.provider).toBe(providerName);
  });

  it.each([
    ['sonnet-4-5', 'Sonnet 4.5 is unavailable: ANTHROPIC_API_KEY is not set on this server'],
    ['opus-4-1', 'Opus 4.1 is unavailable: ANTHROPIC_API_KEY is not set on this server'],
    ['gpt-5-fast', 'GPT-5 Fast is unavailable: OPENAI_API_KEY is not set on this server'],
    ['o3', 'o3 is unavailable: OPENAI_API_KEY is not set on this server'],
    [
      'gemini-2-5-pro',
      'Gemini 2.5 Pro is unavailable: GOOGLE_GENERATIVE_AI_API_KEY is not set on this server',
    ],
  ])('explains why %s is unavailable without its key', (key, reason) => {
    expect(resolveModel(key, {})).toEqual({ ok: false, key, reason });
    expect(resolveModel(key, { anthropicApiKey: '', openaiApiKey: '', googleApiKey: '' })).toEqual({
      ok: false,
      key,
      reason,
    });
  });

  it('resolves every catalog model, admin-only ones included (access is checked elsewhere)', () => {
    expect(MODEL_CATALOG.some((option) => option.admin_only)).toBe(true);
    for (const option of MODEL_CATALOG) expect(resolveModel(option.key, keys)).toMatchObject({ ok: true });
  });

  it('rejects unknown keys', () => {
    expect(resolveModel('gpt-9', keys)).toEqual({ ok: false, key: 'gpt-9', reason: 'Unknown model "gpt-9"' });
    expect(resolveModel('local/', keys)).toEqual({
      ok: false,
      key: 'local/',
      reason: 'Unknown model "local/"',
    });
  });

  it('resolves local/{name} only when the endpoint is configured and lists the name', () => {
    const openaiCompatible = { url: 'http://127.0.0.1:11434/v1', models: ['qwen', 'llama3.3'] };
    const resolved = resolveModel('local/qwen', { openaiCompatible });
    if (!resolved.ok) throw new Error(resolved.reason);
    expect(resolved.option).toMatchObject({ key: 'local/qwen', model: 'qwen', label: 'qwen (local)' });
    expect(resolved.model.modelId).toBe('qwen');
    expect(resolved.providerOptions).toBeUndefined();

    expect(resolveModel('local/mistral', { openaiCompatible })).toEqual({
      ok: false,
      key: 'local/mistral',
      reason:
        'mistral (local) is unavailable: TANDEM_OPENAI_COMPATIBLE_MODELS does not list "mistral" on this server',
    });
    expect(resolveModel('local/qwen', keys)).toEqual({
      ok: false,
      key: 'local/qwen',
      reason: 'qwen (local) is unavailable: TANDEM_OPENAI_COMPATIBLE_URL is not set on this server',
    });
  });

  it('builds a model once per provider settings and builds anew when they change', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen.push(`${req.url} ${req.headers.authorization}`);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'c1',
            object: 'chat.completion',
            created: 0,
            model: 'qwen',
            choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const endpoint = (apiKey: string, path = 'v1') => ({
        openaiCompatible: { url: `http://127.0.0.1:${port}/${path}`, models: ['qwen'], apiKey },
      });
      const model = (env: ReturnType<typeof endpoint>) => {
        const resolved = resolveModel('local/qwen', env);
        if (!resolved.ok) throw new Error(resolved.reason);
        return resolved.model;
      };
      const first = model(endpoint('key-1'));
      // Equal settings in another env object: the same model.
      expect(model(endpoint('key-1'))).toBe(first);
      const rekeyed = model(endpoint('key-2'));
      const moved = model(endpoint('key-2', 'v2'));
      expect(rekeyed).not.toBe(first);
      expect(moved).not.toBe(rekeyed);
      for (const m of [first, rekeyed, moved]) await generateText({ model: m, prompt: 'Hi', maxRetries: 0 });
      expect(seen).toEqual([
        '/v1/chat/completions Bearer key-1',
        '/v1/chat/completions Bearer key-2',
        '/v2/chat/completions Bearer key-2',
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('resolves the scripted model only with a script file', () => {
    expect(resolveModel('scripted', keys)).toEqual({
      ok: false,
      key: 'scripted',
      reason: 'Scripted (tests) is unavailable: TANDEM_SCRIPTED_MODEL_FILE is not set on this server',
    });
    const resolved = resolveModel('scripted', { scriptedModelFile: '/tmp/script.json' });
    if (!resolved.ok) throw new Error(resolved.reason);
    expect(resolved.option).toEqual(scriptedModelOption());
    expect(resolved.option).toMatchObject({
      key: 'scripted',
      label: 'Scripted (tests)',
      default_summarization_limit: 150_000,
      max_summarization_limit: 1_000_000,
    });
    expect(resolved.model.provider).toBe('scripted');
  });

  it('passes reasoning settings in each provider’s option shape', () => {
    expect(resolveModel('gpt-5-fast', keys)).toMatchObject({
      providerOptions: { openai: { reasoningEffort: 'minimal' } },
    });
    expect(resolveModel('gpt-5-medium', keys)).toMatchObject({
      providerOptions: { openai: { reasoningEffort: 'medium' } },
    });
    expect(resolveModel('gpt-5-high', keys)).toMatchObject({
      providerOptions: { openai: { reasoningEffort: 'high' } },
    });
    expect(resolveModel('gemini-2-5-pro', keys)).toMatchObject({
      providerOptions: { google: { thinkingConfig: { thinkingBudget: 128 } } },
    });
    const sonnet = resolveModel('sonnet-4-5', keys);
    expect(sonnet.ok && sonnet.providerOptions).toBeUndefined();
    const o3 = resolveModel('o3', keys);
    expect(o3.ok && o3.providerOptions).toBeUndefined();
  });

  it('maps thinking budgets and reasoning effort for every provider', () => {
    const [base] = MODEL_CATALOG;
    const option = { ...base!, thinking_budget: 2048, reasoning_effort: 'low' as const };
    expect(providerOptionsFor({ ...option, provider: 'anthropic' })).toEqual({
      anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } },
    });
    expect(providerOptionsFor({ ...option, provider: 'google' })).toEqual({
      google: { thinkingConfig: { thinkingBudget: 2048 } },
    });
    expect(providerOptionsFor({ ...option, provider: 'openai' })).toEqual({
      openai: { reasoningEffort: 'low' },
    });
    expect(providerOptionsFor({ ...option, provider: 'openai-compatible' })).toEqual({
      openaiCompatible: { reasoningEffort: 'low' },
    });
  });

  it('sends Anthropic calls to anthropicBaseUrl with the configured key', async () => {
    const seen: { path?: string; key?: string; body?: { model?: string } } = {};
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        Object.assign(seen, {
          path: req.url,
          key: req.headers['x-api-key'],
          body: JSON.parse(raw) as object,
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: 'claude-sonnet-4-5',
            content: [{ type: 'text', text: 'Hello from the fake Anthropic.' }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 12, output_tokens: 7, cache_read_input_tokens: 30 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const resolved = resolveModel('sonnet-4-5', {
        anthropicApiKey: 'sk-local',
        anthropicBaseUrl: `http://127.0.0.1:${port}/v1`,
      });
      if (!resolved.ok) throw new Error(resolved.reason);
      const result = await generateText({ model: resolved.model, prompt: 'Hi', maxRetries: 0 });
      expect(result.text).toBe('Hello from the fake Anthropic.');
      expect(seen).toMatchObject({
        path: '/v1/messages',
        key: 'sk-local',
        body: { model: 'claude-sonnet-4-5' },
      });
      expect(result.usage.inputTokenDetails.cacheReadTokens).toBe(30);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
