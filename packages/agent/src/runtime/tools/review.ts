import { z } from 'zod';
import { sandboxGit } from '../../sandbox/index.js';
import { agentSources } from '@tandem/db';
import { and, eq, isNotNull } from 'drizzle-orm';
import { defineTool, ToolInputError, type ToolContext } from './types.js';

/** What marks an agent that reviews a person's pull request (agents.purpose). */
export const REVIEW_PURPOSE = 'review';
/** A review's inline comments: GitHub takes many, people read few. */
const MAX_REVIEW_COMMENTS = 30;

const reviewComment = z
  .object({
    path: z.string().min(1).max(1000),
    line: z.number().int().positive().describe('The (last) line the comment is about'),
    side: z.enum(['LEFT', 'RIGHT']).default('RIGHT').describe('RIGHT: the new code; LEFT: removed code'),
    start_line: z.number().int().positive().optional().describe('First line, for a comment on several lines'),
    body: z.string().min(1).max(10_000),
  })
  .refine((c) => c.start_line === undefined || c.start_line < c.line, {
    message: 'start_line must be before line',
  });

export const submitReview = defineTool({
  name: 'submit_review',
  description: `Post your review of the pull request: a summary and inline comments (at most ${MAX_REVIEW_COMMENTS}) anchored to lines of its diff. Post once per review; comment only on lines the pull request changed.`,
  input: z.object({
    number: z.number().int().positive().optional().describe('The pull request; default: the one you review'),
    body: z
      .string()
      .min(1)
      .max(60_000)
      .describe('The summary: what the change does and what needs attention'),
    comments: z.array(reviewComment).max(MAX_REVIEW_COMMENTS).default([]),
  }),
  async execute(input, ctx) {
    const at = { owner: ctx.repo.owner, repo: ctx.repo.name };
    const number = input.number ?? (await reviewedPull(ctx));
    if (!number) throw new ToolInputError('Which pull request? Pass its number.');
    // Anchored to the commit the agent read, so comments land where it looked.
    const head = await sandboxGit(ctx.workspace, ['rev-parse', 'HEAD']);
    const commitId = head.exitCode === 0 ? head.stdout.trim() : undefined;
    const review = await ctx.once(`review:${ctx.toolCallId}`, async () => {
      const { data } = await ctx.github.rest.pulls.createReview({
        ...at,
        pull_number: number,
        ...(commitId ? { commit_id: commitId } : {}),
        event: 'COMMENT',
        body: ctx.scrub(input.body),
        comments: input.comments.map((c) => ({
          path: c.path,
          line: c.line,
          side: c.side,
          ...(c.start_line !== undefined ? { start_line: c.start_line, start_side: c.side } : {}),
          body: ctx.scrub(c.body),
        })),
      });
      return { id: data.id, html_url: data.html_url };
    });
    await ctx.emit({
      itemType: 'action',
      actionType: 'ActivitySummaryEvent',
      dedupeKey: `review:${ctx.toolCallId}`,
      data: {
        action_type: 'ActivitySummaryEvent',
        summary: `Reviewed #${number} with ${input.comments.length} inline comment${input.comments.length === 1 ? '' : 's'}`,
        number,
        html_url: review.html_url,
      },
    });
    return { output: `Posted review ${review.id} on #${number}: ${review.html_url}` };
  },
});

/** The pull request a reviewer follows (its branch source). */
async function reviewedPull(ctx: ToolContext): Promise<number | undefined> {
  const [source] = await ctx.db
    .select({ number: agentSources.number })
    .from(agentSources)
    .where(
      and(
        eq(agentSources.agentId, ctx.agent.id),
        eq(agentSources.type, 'branch'),
        isNotNull(agentSources.number),
      ),
    )
    .limit(1);
  return source?.number ?? undefined;
}
