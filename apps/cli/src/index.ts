export { buildProgram, DEFAULT_SERVER_URL } from './program.js';
export { getJson, CliApiError } from './api.js';
