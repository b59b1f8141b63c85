export * from './api/health.js';
export * from './api/users.js';
export * from './api/installations.js';
export * from './errors/validation.js';
export * from './errors/http-messages.js';
export * from './constants.js';
export * from './lib/return-path.js';
