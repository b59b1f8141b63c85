import type { Command } from 'commander';
import { archiveResponseSchema } from '@tandem/shared';
import type { Context } from '../context.js';
import { agentId, examples } from './shared.js';

export function registerArchive(program: Command, ctx: Context): void {
  program
    .command('archive')
    .description('Archive an agent (hidden from `tandem list`; `tandem list --archived` shows it)')
    .argument('<id>', 'agent id', agentId)
    .addHelpText('after', examples('tandem archive $ID'))
    .action(async (id: string, _options: unknown, command: Command) => {
      await ctx.client(command).post('/api/agent/archive', { trajectory_id: id }, archiveResponseSchema);
      ctx.out('Agent archived');
    });
}
