import type { Command } from 'commander';
import { archiveResponseSchema } from '@tandem/shared';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { agentId, examples } from './shared.js';

export function registerUnarchive(program: Command, ctx: Context): void {
  program
    .command('unarchive')
    .description('Restore an archived agent')
    .argument('<id>', 'agent id', agentId)
    .addHelpText('after', examples('tandem unarchive $ID'))
    .action(async (id: string, _options: unknown, command: Command) => {
      const answer = await ctx
        .client(command)
        .post('/api/agent/unarchive', { trajectory_id: id }, archiveResponseSchema);
      // Refused when another active agent already follows the same pull request or issue (workspace §8).
      if (!answer.success && answer.error_data)
        throw new CliError(
          `Cannot unarchive: There is already an active Agent for #${answer.error_data.number} ` +
            `(${answer.error_data.html_url})`,
        );
      if (!answer.success) throw new CliError('Failed to unarchive agent');
      ctx.out('Agent unarchived');
    });
}
