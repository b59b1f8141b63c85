import { z } from 'zod';
import { MAX_WAIT_SECONDS } from './control.js';
import {
  defineTool,
  ToolInputError,
  type SubAgentView,
  type SupervisionHost,
  type ToolContext,
} from './types.js';

/** Statuses in which a sub-agent is still working (or will wake by itself). */
const WORKING = new Set(['open', 'pending', 'waiting']);

function host(ctx: ToolContext): SupervisionHost {
  if (ctx.agent.agentType !== 'supervisor')
    throw new ToolInputError('Only supervisor agents have sub-agents.');
  if (!ctx.supervision) throw new ToolInputError('Sub-agents are not available on this server.');
  return ctx.supervision;
}

/** One line (and its report) per sub-agent: what the model reads back. */
export function describeSubAgent(sub: SubAgentView): string {
  const lines = [`- ${sub.id} #${sub.number} "${sub.title}" in ${sub.repository ?? '?'}: ${sub.status}`];
  for (const url of sub.pullRequests) lines.push(`  pull request: ${url}`);
  if (sub.summary) lines.push(`  last report: ${sub.summary}`);
  return lines.join('\n');
}

const subAgentId = z
  .string()
  .uuid()
  .describe('The sub-agent id, as start_sub_agent or sub_agent_status gave it');

export const startSubAgent = defineTool({
  name: 'start_sub_agent',
  description:
    'Start a sub-agent: an editor agent that works on one task in a repository of this installation (its own branch, commits and pull request). It reports back to you when it finishes; wait_for_sub_agents waits for reports.',
  input: z.object({
    repository: z.string().min(3).max(200).describe('owner/name of the repository to work in'),
    task: z
      .string()
      .min(1)
      .max(20_000)
      .describe("The sub-agent's first message: the task, with everything it needs to know"),
    base_branch: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe('Branch to start from; default: the repository default'),
  }),
  async execute(input, ctx) {
    const supervision = host(ctx);
    // Once per tool call: a resumed run must not start a second sub-agent for the same call.
    const sub = await ctx.once(`sub-agent:${ctx.toolCallId}`, () =>
      supervision.startSubAgent(ctx.agent, {
        repository: input.repository.trim(),
        task: ctx.scrub(input.task),
        ...(input.base_branch ? { base_branch: input.base_branch } : {}),
      }),
    );
    return { output: `Started sub-agent:\n${describeSubAgent(sub)}` };
  },
});

export const messageSubAgent = defineTool({
  name: 'message_sub_agent',
  description:
    'Send a message to one of your sub-agents (an answer, a correction, more work); it wakes to read it.',
  input: z.object({ sub_agent_id: subAgentId, message: z.string().min(1).max(20_000) }),
  async execute(input, ctx) {
    const supervision = host(ctx);
    const sub = await ctx.once(`sub-agent-message:${ctx.toolCallId}`, () =>
      supervision.messageSubAgent(ctx.agent, input.sub_agent_id, ctx.scrub(input.message)),
    );
    return { output: `Message sent.\n${describeSubAgent(sub)}` };
  },
});

export const subAgentStatus = defineTool({
  name: 'sub_agent_status',
  description:
    'The status of every sub-agent you started: working or not, pull requests, and its last report.',
  input: z.object({}),
  async execute(_input, ctx) {
    const subs = await host(ctx).listSubAgents(ctx.agent);
    if (!subs.length) return { output: 'You have not started any sub-agent yet.' };
    return { output: subs.map(describeSubAgent).join('\n') };
  },
});

export const waitForSubAgents = defineTool({
  name: 'wait_for_sub_agents',
  description:
    "Pause until a sub-agent reports back (or up to a number of seconds). Returns at once when none is working. Reports arrive as messages from 'sub-agent #n'.",
  input: z.object({ seconds: z.number().int().positive().max(MAX_WAIT_SECONDS).default(MAX_WAIT_SECONDS) }),
  async execute(input, ctx) {
    const subs = await host(ctx).listSubAgents(ctx.agent);
    const working = subs.filter((s) => WORKING.has(s.status));
    if (!working.length)
      return {
        output:
          `No sub-agent is working; nothing to wait for.\n${subs.map(describeSubAgent).join('\n')}`.trim(),
      };
    await ctx.emit({
      itemType: 'action',
      actionType: 'WaitEvent',
      data: { action_type: 'WaitEvent', seconds: input.seconds, wait_status: 'waiting' },
    });
    return {
      output: `Waiting for ${working.length} working sub-agent(s), up to ${input.seconds} s. A report (or a message) wakes you; it comes after this.`,
      stop: { kind: 'wait', seconds: input.seconds },
    };
  },
});

export const SUPERVISOR_TOOLS = [startSubAgent, messageSubAgent, subAgentStatus, waitForSubAgents];
