import type { Command } from 'commander';
import { createAgentResponseSchema, type CreateAgentRequest } from '@tandem/shared';
import type { Context } from '../context.js';
import { DEFAULT_POLL_SECONDS, parseInterval, showConversation } from '../follow.js';
import { readMessage } from './message.js';
import { agentUrl, examples, repoName } from './shared.js';

interface CreateOptions {
  base?: string;
  model?: string;
  reviewModel?: string;
  watch?: boolean;
  interval: number;
}

export function registerCreate(program: Command, ctx: Context): void {
  program
    .command('create')
    .description(
      'Start an agent on a repository with a first message; prints its id, then its page in the web app',
    )
    .argument('<owner/name>', 'the repository', repoName)
    .argument('[message]', 'what to do; "-" or omitted reads standard input')
    .option('--base <branch>', 'base branch (created if it does not exist)')
    .option('--model <key>', 'model key (as the web app lists them)')
    .option('--review-model <key>', 'automatic reviewer model key')
    .option('--watch', 'then follow the conversation until the agent stops (like view --follow)')
    .option('--interval <seconds>', 'poll interval with --watch', parseInterval, DEFAULT_POLL_SECONDS)
    .addHelpText(
      'after',
      examples(
        'tandem create acme/webapp "Add a subtract function to src/math.js"',
        'tandem create acme/webapp "Fix the flaky test" --base develop --watch',
        'cat task.md | tandem create acme/webapp -',
      ),
    )
    .action(async (repo: string, message: string | undefined, options: CreateOptions, command: Command) => {
      const client = ctx.client(command);
      const body: CreateAgentRequest = {
        body: await readMessage(ctx, message),
        ...(options.base ? { base_branch: options.base } : {}),
        ...(options.model ? { model: options.model } : {}),
        ...(options.reviewModel ? { review_model: options.reviewModel } : {}),
      };
      const created = await client.post(`/api/agents/create-agent/${repo}`, body, createAgentResponseSchema);
      ctx.out(created.agent_id);
      ctx.out(agentUrl(client.baseUrl, repo, created.agent_id));
      if (options.watch)
        await showConversation(ctx, client, created.agent_id, {
          follow: true,
          json: false,
          intervalSeconds: options.interval,
        });
    });
}
