import type { Command } from 'commander';
import { successResponseSchema } from '@tandem/shared';
import type { Context } from '../context.js';
import { agentId, examples } from './shared.js';

export function registerPause(program: Command, ctx: Context): void {
  program
    .command('pause')
    .description('Pause a working agent (it stops after its current step; a message wakes it again)')
    .argument('<id>', 'agent id', agentId)
    .addHelpText('after', examples('tandem pause $ID'))
    .action(async (id: string, _options: unknown, command: Command) => {
      await ctx.client(command).post('/api/agent/interrupt', { trajectory_id: id }, successResponseSchema);
      ctx.out(`Paused ${id}.`);
    });
}
