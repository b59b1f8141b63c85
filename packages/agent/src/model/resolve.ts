import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3, SharedV3ProviderOptions } from '@ai-sdk/provider';
import { LOCAL_MODEL_PREFIX, localModelOption, MODEL_CATALOG, type ModelOption } from '@tandem/shared';
import { DEMO_MODEL_KEY, SCRIPTED_MODEL_FILE_VARIABLE, SCRIPTED_MODEL_KEY, type ModelEnv } from './config.js';
import { createDemoModel, demoModelOption } from './demo.js';
import { providerOptionsFor } from './provider-options.js';
import { createScriptedModel } from './scripted.js';

export type ResolvedModel =
  | {
      ok: true;
      key: string;
      option: ModelOption;
      /** A LanguageModelV3 is a LanguageModel: pass it straight to generateText / streamText. */
      model: LanguageModelV3;
      /** The option's reasoning effort / thinking budget, for generateText({ providerOptions }). */
      providerOptions?: SharedV3ProviderOptions;
    }
  | { ok: false; key: string; reason: string };

/** The `scripted` test model's catalog entry; it is never in MODEL_CATALOG. */
export function scriptedModelOption(): ModelOption {
  return {
    key: SCRIPTED_MODEL_KEY,
    model: SCRIPTED_MODEL_KEY,
    label: 'Scripted (tests)',
    description: `Deterministic replies read from ${SCRIPTED_MODEL_FILE_VARIABLE}, for tests.`,
    provider: 'openai-compatible',
    thinking_budget: null,
    reasoning_effort: null,
    temperature: null,
    default_summarization_limit: 150_000,
    max_summarization_limit: 1_000_000,
    core_recommended: false,
    review_recommended: false,
    admin_only: false,
  };
}

const KEY_VARIABLE = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  google: 'GOOGLE_GENERATIVE_AI_API_KEY',
  'openai-compatible': 'TANDEM_OPENAI_COMPATIBLE_URL',
} as const;

/**
 * A model key → a model ready for generateText, or why it cannot run on this server. Whether the
 * user may use the model (admin-only entries) is checked by the caller, not here.
 */
export function resolveModel(key: string, env: ModelEnv): ResolvedModel {
  if (key === SCRIPTED_MODEL_KEY) {
    const option = scriptedModelOption();
    if (!env.scriptedModelFile) return unavailable(option, `${SCRIPTED_MODEL_FILE_VARIABLE} is not set`);
    return { ok: true, key, option, model: createScriptedModel(env.scriptedModelFile) };
  }

  if (key === DEMO_MODEL_KEY) {
    const option = demoModelOption();
    if (!env.demoModel)
      return unavailable(option, 'a model provider is configured (TANDEM_DEMO_MODEL=on offers it anyway)');
    return { ok: true, key, option, model: createDemoModel() };
  }

  let option = MODEL_CATALOG.find((candidate) => candidate.key === key);
  if (!option && key.startsWith(LOCAL_MODEL_PREFIX) && key.length > LOCAL_MODEL_PREFIX.length) {
    option = localModelOption(key.slice(LOCAL_MODEL_PREFIX.length));
    const models = env.openaiCompatible?.models;
    if (models && !models.includes(option.model)) {
      return unavailable(option, `TANDEM_OPENAI_COMPATIBLE_MODELS does not list "${option.model}"`);
    }
  }
  if (!option) return { ok: false, key, reason: `Unknown model "${key}"` };

  const model = createModel(option, env);
  if (!model) return unavailable(option, `${KEY_VARIABLE[option.provider]} is not set`);
  const providerOptions = providerOptionsFor(option);
  return { ok: true, key, option, model, ...(providerOptions ? { providerOptions } : {}) };
}

function unavailable(option: ModelOption, why: string): ResolvedModel {
  return { ok: false, key: option.key, reason: `${option.label} is unavailable: ${why} on this server` };
}

/**
 * Models built so far, by provider, settings and model id. Building one is not free: the
 * OpenAI-compatible chat model alone costs ~0.7 ms of CPU (its response schemas), paid by every
 * run of every agent (issue 15: 100 agents at once). A model holds only its settings, so runs
 * share it. Keyed on the settings' values, not the env object: a changed key or URL builds anew.
 */
const built = new Map<string, LanguageModelV3 | undefined>();
/** Settings seen in one process are few; a bound keeps a test run that varies them from growing. */
const BUILT_LIMIT = 64;

function createModel(option: ModelOption, env: ModelEnv): LanguageModelV3 | undefined {
  const key = JSON.stringify([option.provider, option.model, providerSettings(option, env)]);
  if (built.has(key)) return built.get(key);
  const model = buildModel(option, env);
  if (built.size >= BUILT_LIMIT) built.delete(built.keys().next().value!);
  built.set(key, model);
  return model;
}

/** What buildModel reads of `env` for the option's provider. */
function providerSettings(option: ModelOption, env: ModelEnv): unknown {
  switch (option.provider) {
    case 'anthropic':
      return [env.anthropicApiKey, env.anthropicBaseUrl];
    case 'openai':
      return [env.openaiApiKey, env.openaiBaseUrl];
    case 'google':
      return [env.googleApiKey, env.googleBaseUrl];
    case 'openai-compatible':
      return [env.openaiCompatible?.url, env.openaiCompatible?.apiKey];
  }
}

/** Undefined when the provider is not configured. Creating a provider makes no network call. */
function buildModel(option: ModelOption, env: ModelEnv): LanguageModelV3 | undefined {
  switch (option.provider) {
    case 'anthropic':
      return env.anthropicApiKey
        ? createAnthropic({ apiKey: env.anthropicApiKey, baseURL: env.anthropicBaseUrl })(option.model)
        : undefined;
    case 'openai':
      // createOpenAI(...)(id) speaks the Responses API, which the GPT-5 reasoning options target.
      return env.openaiApiKey
        ? createOpenAI({ apiKey: env.openaiApiKey, baseURL: env.openaiBaseUrl })(option.model)
        : undefined;
    case 'google':
      return env.googleApiKey
        ? createGoogleGenerativeAI({ apiKey: env.googleApiKey, baseURL: env.googleBaseUrl })(option.model)
        : undefined;
    case 'openai-compatible':
      // Not createOpenAI: Ollama / vLLM speak chat completions, not the Responses API.
      return env.openaiCompatible
        ? createOpenAICompatible({
            name: 'local',
            baseURL: env.openaiCompatible.url,
            apiKey: env.openaiCompatible.apiKey || undefined,
            // Without it, streamed responses carry no usage and local calls would record zero tokens.
            includeUsage: true,
          })(option.model)
        : undefined;
  }
}
