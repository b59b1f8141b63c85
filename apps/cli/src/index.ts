export { buildProgram, DEFAULT_SERVER_URL } from './program.js';
export { ApiClient } from './api.js';
export { CliError, EXIT } from './errors.js';
export { processContext, type Context } from './context.js';
