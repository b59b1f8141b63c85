export * from './client.js';
export * from './data-dir-lock.js';
export * as schema from './schema/index.js';
export * from './schema/index.js';
export * from './prepared.js';
export * from './latest-timestamp.js';
export * from './coalesced.js';
export * from './json-rows.js';
