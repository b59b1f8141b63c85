export * from './limits.js';
export * from './client.js';
export * from './graphql.js';
export * from './app-auth.js';
export * from './oauth.js';
export * from './webhooks.js';
export * from './reads.js';
