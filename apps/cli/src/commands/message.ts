import type { Command } from 'commander';
import { eventUuidResponseSchema, MESSAGE_MAX_CHARS } from '@tandem/shared';
import type { Context } from '../context.js';
import { usageError } from '../errors.js';
import { DEFAULT_POLL_SECONDS, parseInterval, showConversation } from '../follow.js';
import { agentId, examples } from './shared.js';

/**
 * The message text: the argument, or standard input when it is "-" or omitted and stdin is not a
 * terminal (so `git diff | tandem message ID` works and a bare `tandem message ID` does not hang).
 */
export async function readMessage(ctx: Context, argument: string | undefined): Promise<string> {
  let text = argument;
  if (text === undefined || text === '-') {
    if (ctx.stdin.isTTY) throw usageError('Give the message as an argument, or pipe it on standard input');
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.stdin)
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    text = Buffer.concat(chunks).toString('utf8');
  }
  if (!text.trim()) throw usageError('The message is empty');
  if (text.length > MESSAGE_MAX_CHARS)
    throw usageError(`The message is longer than ${MESSAGE_MAX_CHARS} characters`);
  return text;
}

interface MessageOptions {
  watch?: boolean;
  interval: number;
}

export function registerMessage(program: Command, ctx: Context): void {
  program
    .command('message')
    .alias('msg')
    .description('Send a message to an agent (it wakes up and works on it)')
    .argument('<id>', 'agent id', agentId)
    .argument('[text]', 'the message; "-" or omitted reads standard input')
    .option('--watch', 'then follow the conversation until the agent stops')
    .option('--interval <seconds>', 'poll interval with --watch', parseInterval, DEFAULT_POLL_SECONDS)
    .addHelpText(
      'after',
      examples(
        'tandem message $ID "Also add a test for negative numbers"',
        'npm test 2>&1 | tandem message $ID',
        'tandem message $ID "Rebase on main" --watch',
      ),
    )
    .action(async (id: string, text: string | undefined, options: MessageOptions, command: Command) => {
      const client = ctx.client(command);
      const message = await readMessage(ctx, text);
      const sent = await client.post('/api/agent/message', { message }, eventUuidResponseSchema, {
        trajectory_id: id,
      });
      ctx.err(`Sent (event ${sent.event_uuid}).`);
      if (options.watch)
        await showConversation(ctx, client, id, {
          follow: true,
          json: false,
          intervalSeconds: options.interval,
        });
    });
}
