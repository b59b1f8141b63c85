/**
 * The agents domain, one use case per file under `services/agents/`; this module gathers them for
 * the routes and the other services.
 */
export * from './agents/agent-access.js';
export * from './agents/agent-metadata.js';
export * from './agents/list-agents.js';
export * from './agents/create-agent.js';
export * from './agents/member-repository.js';
export * from './agents/conversation-page.js';
export * from './agents/send-message.js';
export * from './agents/mark-read.js';
export * from './agents/update-agent.js';
