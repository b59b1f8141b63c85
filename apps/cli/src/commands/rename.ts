import type { Command } from 'commander';
import { agentMetadataSchema, titleError } from '@tandem/shared';
import type { Context } from '../context.js';
import { usageError } from '../errors.js';
import { agentId, examples } from './shared.js';

export function registerRename(program: Command, ctx: Context): void {
  program
    .command('rename')
    .description("Change an agent's title (2 to 200 characters, one line)")
    .argument('<id>', 'agent id', agentId)
    .argument('<title>', 'the new title')
    .addHelpText('after', examples('tandem rename $ID "Subtract helper"'))
    .action(async (id: string, title: string, _options: unknown, command: Command) => {
      // The same rule as the server (workspace §5), checked here to fail before any request.
      const problem = titleError(title);
      if (problem) throw usageError(problem);
      const agent = await ctx
        .client(command)
        .post('/api/agent/update-title', { trajectory_id: id, title }, agentMetadataSchema);
      ctx.out(`Renamed ${id} to "${agent.title}".`);
    });
}
