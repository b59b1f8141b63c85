import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/schema.js';
import { modelList } from './models.js';

describe('GET /api/models', () => {
  it('marks models whose provider has no key unavailable, with the reason', () => {
    const { models } = loadConfig({ ANTHROPIC_API_KEY: 'sk-ant-test' });
    const list = modelList(models, false);
    expect(list.default_model).toBe('sonnet-4-5');
    expect(list.default_review_model).toBe('gpt-5-medium');
    expect(list.models.find((m) => m.key === 'sonnet-4-5')).toMatchObject({
      available: true,
      unavailable_reason: null,
    });
    expect(list.models.find((m) => m.key === 'gpt-5-fast')).toMatchObject({
      available: false,
      unavailable_reason: 'OPENAI_API_KEY is not set on this server',
    });
    expect(list.models.some((m) => m.admin_only)).toBe(false);
    expect(
      modelList(models, true)
        .models.filter((m) => m.admin_only)
        .map((m) => m.key),
    ).toEqual(['sonnet-4', 'gpt-5-high', 'o3']);
  });

  it('offers OpenAI-compatible models as local/{name} and lets one be the default', () => {
    const { models } = loadConfig({
      TANDEM_OPENAI_COMPATIBLE_URL: 'http://127.0.0.1:11434/v1',
      TANDEM_OPENAI_COMPATIBLE_MODELS: 'qwen2.5-coder, llama3.3',
      TANDEM_DEFAULT_MODEL: 'local/qwen2.5-coder',
    });
    const list = modelList(models, false);
    expect(list.default_model).toBe('local/qwen2.5-coder');
    expect(
      list.models.filter((m) => m.provider === 'openai-compatible').map((m) => [m.key, m.label, m.available]),
    ).toEqual([
      ['local/qwen2.5-coder', 'qwen2.5-coder (local)', true],
      ['local/llama3.3', 'llama3.3 (local)', true],
    ]);
  });

  it('refuses an unknown default model and local models without an endpoint', () => {
    expect(() => loadConfig({ TANDEM_DEFAULT_MODEL: 'gpt-2' })).toThrow(
      'TANDEM_DEFAULT_MODEL must be one of',
    );
    expect(() => loadConfig({ TANDEM_OPENAI_COMPATIBLE_MODELS: 'x' })).toThrow(
      'TANDEM_OPENAI_COMPATIBLE_MODELS needs TANDEM_OPENAI_COMPATIBLE_URL to be set',
    );
  });
});
