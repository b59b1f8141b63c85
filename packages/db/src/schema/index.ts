export * from './users.js';
export * from './sessions.js';
export * from './installations.js';
export * from './webhooks.js';
export * from './site.js';
export * from './blog.js';
export * from './agents.js';
export * from './runtime.js';
