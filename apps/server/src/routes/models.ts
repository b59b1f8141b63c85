import type { FastifyInstance } from 'fastify';
import {
  DEFAULT_REVIEW_MODEL_KEY,
  localModelOption,
  MODEL_CATALOG,
  type ModelList,
  type ModelOption,
  type ModelProvider,
} from '@tandem/shared';
import {
  DEMO_MODEL_KEY,
  demoModelOption,
  SCRIPTED_MODEL_KEY,
  scriptedModelOption,
  type ModelEnv,
} from '@tandem/agent';
import type { ModelsConfig } from '../config/schema.js';
import { AppError } from '../errors/app-error.js';

/** The runtime's view of the model configuration. */
export function modelEnv(config: ModelsConfig): ModelEnv {
  return {
    anthropicApiKey: config.anthropicApiKey,
    openaiApiKey: config.openaiApiKey,
    googleApiKey: config.googleApiKey,
    openaiCompatible: config.openaiCompatible
      ? {
          url: config.openaiCompatible.url,
          models: config.openaiCompatible.models,
          apiKey: config.openaiCompatible.apiKey,
        }
      : undefined,
    scriptedModelFile: config.scriptedModelFile,
    demoModel: config.demoModel,
  };
}

const KEY_VARIABLE: Record<Exclude<ModelProvider, 'openai-compatible'>, keyof ModelsConfig> = {
  anthropic: 'anthropicApiKey',
  openai: 'openaiApiKey',
  google: 'googleApiKey',
};
const KEY_NAME: Record<Exclude<ModelProvider, 'openai-compatible'>, string> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  google: 'GOOGLE_GENERATIVE_AI_API_KEY',
};

/** Why a model cannot run on this deployment, or null when it can. */
export function unavailableReason(model: ModelOption, config: ModelsConfig): string | null {
  if (model.key === DEMO_MODEL_KEY)
    return config.demoModel ? null : 'TANDEM_DEMO_MODEL is off on this server';
  if (model.key === SCRIPTED_MODEL_KEY)
    return config.scriptedModelFile ? null : 'TANDEM_SCRIPTED_MODEL_FILE is not set';
  if (model.provider === 'openai-compatible')
    return config.openaiCompatible ? null : 'TANDEM_OPENAI_COMPATIBLE_URL is not set';
  return config[KEY_VARIABLE[model.provider]]
    ? null
    : `${KEY_NAME[model.provider]} is not set on this server`;
}

export function modelList(config: ModelsConfig, admin: boolean): ModelList {
  const catalog = [
    ...(config.demoModel ? [demoModelOption()] : []),
    ...MODEL_CATALOG,
    ...(config.openaiCompatible?.models ?? []).map(localModelOption),
    ...(config.scriptedModelFile ? [scriptedModelOption()] : []),
  ];
  return {
    models: catalog
      .filter((m) => admin || !m.admin_only)
      .map((m) => {
        const reason = unavailableReason(m, config);
        return { ...m, available: reason === null, unavailable_reason: reason };
      }),
    default_model: config.defaultModel,
    default_review_model: DEFAULT_REVIEW_MODEL_KEY,
  };
}

/** Model keys → what agent creation needs: the chosen (or default) model, and who may pick what. */
export function modelChoices(config: ModelsConfig) {
  return {
    resolve(key: string | null | undefined, admin: boolean) {
      const chosen = key ?? config.defaultModel;
      const option = modelList(config, admin).models.find((m) => m.key === chosen);
      if (!option) throw new AppError('validation', `Unknown model "${chosen}"`);
      return { key: option.key, defaultLimit: option.default_summarization_limit };
    },
    selectable(key: string, admin: boolean) {
      return modelList(config, admin).models.some((m) => m.key === key && m.available);
    },
  };
}

/** GET /api/models: the catalog for this viewer, with availability (admin-only models for admins). */
export function modelRoutes(app: FastifyInstance, deps: { models: ModelsConfig }): void {
  app.get('/api/models', async (request) => modelList(deps.models, request.user?.admin ?? false));
}
