import { z } from 'zod';
import { sandboxGit } from '../../sandbox/index.js';
import { defineTool } from './types.js';

const MAX_MATCHES = 200;

export const gitGrep = defineTool({
  name: 'git_grep',
  description:
    'Search the repository with git grep (tracked and untracked files, .gitignore respected). Pattern is a POSIX extended regular expression; optional pathspecs narrow it (e.g. "src/**/*.ts").',
  input: z.object({
    pattern: z.string().min(1),
    paths: z.array(z.string()).max(20).default([]),
    ignore_case: z.boolean().default(false),
  }),
  async execute(input, ctx) {
    const args = [
      'grep',
      '-n',
      '-I',
      '-E',
      '--untracked',
      ...(input.ignore_case ? ['-i'] : []),
      '-e',
      input.pattern,
    ];
    if (input.paths.length) args.push('--', ...input.paths);
    const result = await sandboxGit(ctx.workspace, args, { timeoutMs: 30_000 });
    // git grep exits 1 when nothing matched: that is an answer, not a failure.
    const lines = result.exitCode === 0 ? result.stdout.split('\n').filter(Boolean) : [];
    const shown = lines.slice(0, MAX_MATCHES).map(ctx.scrub);
    const summary =
      result.exitCode > 1
        ? `git grep failed: ${result.stderr.trim()}`
        : `${lines.length} match${lines.length === 1 ? '' : 'es'} for ${input.pattern}`;
    await ctx.emit({
      itemType: 'action',
      actionType: 'GitGrepSearchEvent',
      data: { action_type: 'GitGrepSearchEvent', summary, summary_content: shown.join('\n') },
    });
    const more = lines.length > MAX_MATCHES ? `\n… ${lines.length - MAX_MATCHES} more matches` : '';
    return { output: `${summary}\n${shown.join('\n')}${more}` };
  },
});
