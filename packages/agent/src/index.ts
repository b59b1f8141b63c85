/**
 * The agent runtime (LLM loop, tools, sandbox, summarization, pricing) lands here with the agent
 * runtime issue; this package exists now so the dependency direction (agent → db, github, shared)
 * is fixed from the start.
 */
export const AGENT_PACKAGE = '@tandem/agent';
