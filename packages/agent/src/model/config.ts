/**
 * What the model layer needs to know about this deployment. Structurally a subset of the server's
 * `ModelsConfig`, so the server can pass its config straight through.
 */
export interface ModelEnv {
  anthropicApiKey?: string;
  openaiApiKey?: string;
  googleApiKey?: string;
  /** TANDEM_OPENAI_COMPATIBLE_URL / _MODELS / _API_KEY: models offered as `local/{name}`. */
  openaiCompatible?: { url: string; models: string[]; apiKey?: string };
  /** TANDEM_SCRIPTED_MODEL_FILE: enables the `scripted` model (tests only). */
  scriptedModelFile?: string;
  /** The offline demo model is offered (TANDEM_DEMO_MODEL, or no provider configured). */
  demoModel?: boolean;
  /** Base-URL overrides, for proxies and for tests that point a provider at a local server. */
  anthropicBaseUrl?: string;
  openaiBaseUrl?: string;
  googleBaseUrl?: string;
}

export const SCRIPTED_MODEL_KEY = 'scripted';
export const SCRIPTED_MODEL_FILE_VARIABLE = 'TANDEM_SCRIPTED_MODEL_FILE';
/** The offline demo model (model/demo.ts), offered when `ModelEnv.demoModel` is set. */
export { DEMO_MODEL_KEY } from '@tandem/shared';
