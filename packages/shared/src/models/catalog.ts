import { z } from 'zod';

export const SUMMARIZATION_MINIMUM = 100_000;

export const modelProviderSchema = z.enum(['anthropic', 'openai', 'google', 'openai-compatible']);
export type ModelProvider = z.infer<typeof modelProviderSchema>;

/** Model option (workspace §3), plus where it runs and what it costs. */
export const modelOptionSchema = z.object({
  key: z.string(),
  model: z.string(),
  label: z.string(),
  description: z.string(),
  provider: modelProviderSchema,
  thinking_budget: z.number().nullable(),
  reasoning_effort: z.enum(['minimal', 'low', 'medium', 'high']).nullable(),
  temperature: z.number().nullable(),
  default_summarization_limit: z.number(),
  max_summarization_limit: z.number(),
  core_recommended: z.boolean(),
  review_recommended: z.boolean(),
  admin_only: z.boolean(),
});
export type ModelOption = z.infer<typeof modelOptionSchema>;

/** GET /api/models: the catalog with whether each model can run here, and why not. */
export const availableModelSchema = modelOptionSchema.extend({
  available: z.boolean(),
  unavailable_reason: z.string().nullable(),
});
export const modelListSchema = z.object({
  models: z.array(availableModelSchema),
  default_model: z.string(),
  default_review_model: z.string(),
});
export type ModelList = z.infer<typeof modelListSchema>;

const option = (
  o: Omit<ModelOption, 'temperature' | 'thinking_budget' | 'reasoning_effort'> & Partial<ModelOption>,
): ModelOption => ({
  temperature: null,
  thinking_budget: null,
  reasoning_effort: null,
  ...o,
});

/**
 * The catalog of workspace §9. Where the spec leaves a maximum unstated (GPT-5 high, o3) the
 * default is also the maximum (docs/decisions.md).
 */
export const MODEL_CATALOG: readonly ModelOption[] = [
  option({
    key: 'sonnet-4-5',
    model: 'claude-sonnet-4-5',
    label: 'Sonnet 4.5',
    description: "Anthropic's strongest coding model: the default for agents.",
    provider: 'anthropic',
    default_summarization_limit: 150_000,
    max_summarization_limit: 960_000,
    core_recommended: true,
    review_recommended: false,
    admin_only: false,
  }),
  option({
    key: 'sonnet-4',
    model: 'claude-sonnet-4-0',
    label: 'Sonnet 4',
    description: 'The previous Sonnet.',
    provider: 'anthropic',
    default_summarization_limit: 150_000,
    max_summarization_limit: 960_000,
    core_recommended: true,
    review_recommended: false,
    admin_only: true,
  }),
  option({
    key: 'opus-4-1',
    model: 'claude-opus-4-1',
    label: 'Opus 4.1',
    description: 'Slower and pricier; for the hardest problems.',
    provider: 'anthropic',
    default_summarization_limit: 150_000,
    max_summarization_limit: 160_000,
    core_recommended: false,
    review_recommended: false,
    admin_only: false,
  }),
  option({
    key: 'gpt-5-fast',
    model: 'gpt-5',
    label: 'GPT-5 Fast',
    description: 'GPT-5 with minimal reasoning: quick and inexpensive.',
    provider: 'openai',
    reasoning_effort: 'minimal',
    default_summarization_limit: 350_000,
    max_summarization_limit: 350_000,
    core_recommended: true,
    review_recommended: false,
    admin_only: false,
  }),
  option({
    key: 'gpt-5-medium',
    model: 'gpt-5',
    label: 'GPT-5 Reasoning',
    description: 'GPT-5 with medium reasoning: the default reviewer.',
    provider: 'openai',
    reasoning_effort: 'medium',
    default_summarization_limit: 335_000,
    max_summarization_limit: 335_000,
    core_recommended: false,
    review_recommended: true,
    admin_only: false,
  }),
  option({
    key: 'gemini-2-5-pro',
    model: 'gemini-2.5-pro',
    label: 'Gemini 2.5 Pro',
    description: "Google's long-context model.",
    provider: 'google',
    thinking_budget: 128,
    default_summarization_limit: 150_000,
    max_summarization_limit: 1_008_448,
    core_recommended: false,
    review_recommended: false,
    admin_only: false,
  }),
  option({
    key: 'gpt-5-high',
    model: 'gpt-5',
    label: 'GPT-5 high',
    description: 'GPT-5 with high reasoning effort.',
    provider: 'openai',
    reasoning_effort: 'high',
    default_summarization_limit: 325_000,
    max_summarization_limit: 325_000,
    core_recommended: false,
    review_recommended: false,
    admin_only: true,
  }),
  option({
    key: 'o3',
    model: 'o3',
    label: 'o3',
    description: "OpenAI's o3 reasoning model.",
    provider: 'openai',
    default_summarization_limit: 135_000,
    max_summarization_limit: 135_000,
    core_recommended: false,
    review_recommended: false,
    admin_only: true,
  }),
];

export const DEFAULT_MODEL_KEY = 'sonnet-4-5';
/** The offline demo model: no AI, a fixed plan (packages/agent/src/model/demo.ts). */
export const DEMO_MODEL_KEY = 'demo';
export const DEFAULT_REVIEW_MODEL_KEY = 'gpt-5-medium';
export const LOCAL_MODEL_PREFIX = 'local/';

/** A model served by an OpenAI-compatible endpoint (Ollama, vLLM…): `local/{name}`. */
export function localModelOption(name: string): ModelOption {
  return option({
    key: `${LOCAL_MODEL_PREFIX}${name}`,
    model: name,
    label: `${name} (local)`,
    description: 'Served by your OpenAI-compatible endpoint.',
    provider: 'openai-compatible',
    default_summarization_limit: SUMMARIZATION_MINIMUM,
    max_summarization_limit: 1_000_000,
    core_recommended: false,
    review_recommended: false,
    admin_only: false,
  });
}

/** Summarization-limit rule (workspace §5), with the spec's messages; null when the value is fine. */
export function summarizationLimitError(value: string, model: ModelOption): string | null {
  if (!/^\d+$/.test(value.trim())) return 'Summarization limit must be a valid number.';
  const limit = Number(value.trim());
  if (limit > model.max_summarization_limit) {
    return `Maximum summarization limit for ${model.label} is ${model.max_summarization_limit}`;
  }
  if (limit < SUMMARIZATION_MINIMUM) return `Minimum summarization limit is ${SUMMARIZATION_MINIMUM}`;
  return null;
}
