export { DEMO_MODEL_KEY, SCRIPTED_MODEL_FILE_VARIABLE, SCRIPTED_MODEL_KEY, type ModelEnv } from './config.js';
export { demoModelOption } from './demo.js';
export { PARTY_OPENING_PREFIX } from './demo-party.js';
export { providerOptionsFor } from './provider-options.js';
export { resolveModel, scriptedModelOption, type ResolvedModel } from './resolve.js';
export { createScriptedModel, SUMMARIZE_MARKER } from './scripted.js';
export { scriptFileSchema, type Script, type ScriptFile, type ScriptStep } from './scripted-file.js';
export { LOCAL_MODEL_PRICE, priceFor, SCRIPTED_MODEL_PRICE, toTokenUsage } from './usage.js';
