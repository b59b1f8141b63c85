import { agents } from '@tandem/db';
import { DEFAULT_AGENT_TITLE, titleError } from '@tandem/shared';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { reportToGitHub } from './report-to-github.js';
import { defineTool } from './types.js';

export const MAX_WAIT_SECONDS = 3600;

export const waitTool = defineTool({
  name: 'wait',
  description:
    'Pause for up to a number of seconds (e.g. for CI or a deploy), then continue. A new message or a comment on a followed issue or pull request wakes you earlier.',
  input: z.object({ seconds: z.number().int().positive().max(MAX_WAIT_SECONDS) }),
  async execute(input, ctx) {
    await ctx.emit({
      itemType: 'action',
      actionType: 'WaitEvent',
      data: { action_type: 'WaitEvent', seconds: input.seconds, wait_status: 'waiting' },
    });
    return {
      output:
        `Waiting up to ${input.seconds} s. You are woken when the time is up, or earlier by a new ` +
        'message or a comment on an issue or pull request you follow; anything new comes after this.',
      stop: { kind: 'wait', seconds: input.seconds },
    };
  },
});

export const taskComplete = defineTool({
  name: 'task_complete',
  description: 'Finish: say what was done. The agent then waits for the next message.',
  input: z.object({ summary: z.string().min(1).max(20_000) }),
  async execute(input, ctx) {
    await ctx.emit({
      itemType: 'action',
      actionType: 'TaskCompleteEvent',
      data: { action_type: 'TaskCompleteEvent', task_summary: ctx.scrub(input.summary) },
    });
    // Asked for on an issue or pull request: answer there too. The feed has the summary either way.
    await reportToGitHub(ctx, input.summary).catch((error: unknown) =>
      ctx.emit({
        itemType: 'action',
        actionType: 'ErrorEvent',
        data: {
          action_type: 'ErrorEvent',
          exception: `Could not answer on the code host: ${error instanceof Error ? error.message : String(error)}`,
        },
      }),
    );
    return { output: 'Task complete.', stop: { kind: 'complete' } };
  },
});

export const setTitle = defineTool({
  name: 'set_title',
  description:
    'Name this conversation once you understand the task: a short, specific title (2 to 200 characters, one line). A title the user already chose is kept.',
  input: z.object({ title: z.string().max(1000) }),
  async execute(input, ctx) {
    const title = ctx.scrub(input.title.replace(/\s+/g, ' ').trim());
    const problem = titleError(title);
    if (problem) return { output: `${problem}; the title is unchanged.` };
    // Only an agent still called 'New Chat' is renamed: a user's own title always wins.
    const [renamed] = await ctx.db
      .update(agents)
      .set({ title })
      .where(and(eq(agents.id, ctx.agent.id), eq(agents.title, DEFAULT_AGENT_TITLE)))
      .returning({ id: agents.id });
    return {
      output: renamed ? `Title set to "${title}".` : 'The conversation already has a title; it is kept.',
    };
  },
});
