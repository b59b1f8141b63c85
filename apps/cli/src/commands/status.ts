import type { Command } from 'commander';
import { healthResponseSchema } from '@tandem/shared';
import type { Context } from '../context.js';
import { examples } from './shared.js';

export function registerStatus(program: Command, ctx: Context): void {
  program
    .command('status')
    .description('Show whether a Tandem server is up, its version and database (no sign-in needed)')
    .addHelpText('after', examples('tandem status', 'tandem status --url https://tandem.example.com'))
    .action(async (_options: unknown, command: Command) => {
      const client = ctx.client(command, false);
      const health = await client.get('/api/health', healthResponseSchema);
      ctx.out(
        `${client.baseUrl}: ${health.status} (version ${health.version}, database ${health.database.kind}` +
          `${health.database.reachable ? '' : ' unreachable'})`,
      );
    });
}
