export { buildApp, type App, type AppOptions } from './app.js';
export { loadConfig, ConfigError, type Config } from './config/schema.js';
export { startServer, type RunningServer } from './serve.js';
export { createLogger } from './logger.js';
export { syncUserFromCodeHost } from './services/code-host-sync.js';
