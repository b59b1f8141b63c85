import { Command } from 'commander';
import { healthResponseSchema } from '@tandem/shared';
import { getJson } from './api.js';

export const DEFAULT_SERVER_URL = 'http://localhost:8080';

/**
 * The `tandem` CLI. Agent commands (login, list, create, message, view, pause, rename, checkout,
 * archive, unarchive) arrive with the agent runtime; `status` already talks to a server.
 */
export function buildProgram(
  version: string,
  write: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
) {
  const program = new Command('tandem')
    .description('Manage Tandem coding agents from the terminal')
    .version(version);
  program
    .command('status')
    .description('Show whether a Tandem server is up, its version and database')
    .option('--url <url>', 'Tandem server URL', process.env.TANDEM_URL ?? DEFAULT_SERVER_URL)
    .action(async (options: { url: string }) => {
      const health = await getJson(options.url, '/api/health', healthResponseSchema);
      write(
        `${options.url}: ${health.status} (version ${health.version}, database ${health.database.kind}` +
          `${health.database.reachable ? '' : ' unreachable'})`,
      );
    });
  return program;
}
