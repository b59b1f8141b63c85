import type { Command } from 'commander';
import type { Context } from '../context.js';
import { DEFAULT_POLL_SECONDS, parseInterval, showConversation } from '../follow.js';
import { agentId, examples } from './shared.js';

interface ViewOptions {
  follow?: boolean;
  json?: boolean;
  interval: number;
}

export function registerView(program: Command, ctx: Context): void {
  program
    .command('view')
    .description(
      "Print an agent's conversation: messages, shell output, edits as diffs, commits, pull requests, errors",
    )
    .argument('<id>', 'agent id', agentId)
    .option('-f, --follow', 'keep printing new items until the agent stops working')
    .option('--json', 'print the items as JSON (an array; one object per line with --follow)')
    .option('--interval <seconds>', 'poll interval with --follow', parseInterval, DEFAULT_POLL_SECONDS)
    .addHelpText(
      'after',
      examples(
        'tandem view $ID',
        'tandem view $ID --follow',
        'tandem view $ID --json | jq ".[] | select(.item_type == \\"commit\\")"',
      ),
    )
    .action(async (id: string, options: ViewOptions, command: Command) => {
      await showConversation(ctx, ctx.client(command), id, {
        follow: options.follow === true,
        json: options.json === true,
        intervalSeconds: options.interval,
      });
    });
}
