import { z } from 'zod';
import { defineTool } from './types.js';

export const MAX_WAIT_SECONDS = 3600;

export const waitTool = defineTool({
  name: 'wait',
  description: 'Pause for a number of seconds (e.g. for CI or a deploy), then continue.',
  input: z.object({ seconds: z.number().int().positive().max(MAX_WAIT_SECONDS) }),
  async execute(input, ctx) {
    await ctx.emit({
      itemType: 'action',
      actionType: 'WaitEvent',
      data: { action_type: 'WaitEvent', seconds: input.seconds, wait_status: 'waiting' },
    });
    return { output: `Waited ${input.seconds} s`, stop: { kind: 'wait', seconds: input.seconds } };
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
    return { output: 'Task complete.', stop: { kind: 'complete' } };
  },
});
