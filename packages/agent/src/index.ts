/** The agent runtime: LLM loop, tools, sandbox, credits, summarization. No HTTP, no UI. */
export const AGENT_PACKAGE = '@tandem/agent';
export * from './credits/ledger.js';
export * from './runtime/index.js';
export * from './sandbox/index.js';
export * from './model/index.js';
