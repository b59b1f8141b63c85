import { z } from 'zod';
import { setNumberState, subscribeNumber, upsertBranchSource } from '../sources.js';
import { closingBody, startedFromIssue } from './report-to-github.js';
import { defineTool, type ToolContext } from './types.js';

const repoParams = (ctx: ToolContext) => ({ owner: ctx.repo.owner, repo: ctx.repo.name });
const owner = (ctx: ToolContext) => ({ agentId: ctx.agent.id, repositoryId: ctx.repo.id });

async function lifecycle(ctx: ToolContext, action: string, data: Record<string, unknown>) {
  await ctx.emit({
    itemType: 'number_lifecycle',
    dedupeKey: `${action}:${ctx.toolCallId}`,
    data: { repository_name: ctx.repo.fullName, action, ...data },
  });
}

export const openPullRequest = defineTool({
  name: 'open_pull_request',
  description:
    "Open a pull request from the agent's branch into its base branch, or update the title and body of the one already open. Commit and push first.",
  input: z.object({
    title: z.string().min(1).max(256),
    body: z.string().max(60_000).default(''),
    draft: z.boolean().default(false),
  }),
  async execute(input, ctx) {
    const { branch, baseBranch } = ctx.workspace;
    // The code host is outside the sandbox: what the model writes there is scrubbed first.
    const title = ctx.scrub(input.title);
    // Started from an issue on the code host: the pull request closes it when merged.
    const body = closingBody(ctx.scrub(input.body), await startedFromIssue(ctx));
    const pr = await ctx.once(`pr:${ctx.toolCallId}`, async () => {
      const open = await ctx.github.rest.pulls.list({
        ...repoParams(ctx),
        state: 'open',
        head: `${ctx.repo.owner}:${branch}`,
      });
      const existing = open.data.find((p) => p.head.ref === branch);
      if (existing) {
        const { data } = await ctx.github.rest.pulls.update({
          ...repoParams(ctx),
          pull_number: existing.number,
          title,
          body,
        });
        return { number: data.number, html_url: data.html_url, created: false };
      }
      const { data } = await ctx.github.rest.pulls.create({
        ...repoParams(ctx),
        head: branch,
        base: baseBranch,
        title,
        body,
        draft: input.draft,
      });
      return { number: data.number, html_url: data.html_url, created: true };
    });
    await upsertBranchSource(ctx.db, owner(ctx), branch, {
      number: pr.number,
      state: 'open',
      prDraft: `${title}\n${body}`,
      prDraftBaseBranch: baseBranch,
    });
    await lifecycle(ctx, pr.created ? 'opened' : 'edited', {
      number: pr.number,
      html_url: pr.html_url,
      title,
      type: 'pull_request',
    });
    return { output: `${pr.created ? 'Opened' : 'Updated'} pull request #${pr.number}: ${pr.html_url}` };
  },
});

export const commentOnNumber = defineTool({
  name: 'comment',
  description: 'Comment on an issue or pull request of the repository.',
  input: z.object({ number: z.number().int().positive(), body: z.string().min(1).max(60_000) }),
  async execute(input, ctx) {
    const comment = await ctx.once(`comment:${ctx.toolCallId}`, async () => {
      const { data } = await ctx.github.rest.issues.createComment({
        ...repoParams(ctx),
        issue_number: input.number,
        body: ctx.scrub(input.body),
      });
      return { id: data.id, html_url: data.html_url };
    });
    await lifecycle(ctx, 'commented', { number: input.number, html_url: comment.html_url });
    return { output: `Commented on #${input.number}: ${comment.html_url}` };
  },
});

export const makeIssue = defineTool({
  name: 'make_issue',
  description: 'Open a new issue in the repository.',
  input: z.object({ title: z.string().min(1).max(256), body: z.string().max(60_000).default('') }),
  async execute(input, ctx) {
    const title = ctx.scrub(input.title);
    const issue = await ctx.once(`issue:${ctx.toolCallId}`, async () => {
      const { data } = await ctx.github.rest.issues.create({
        ...repoParams(ctx),
        title,
        body: ctx.scrub(input.body),
      });
      return { number: data.number, html_url: data.html_url };
    });
    await ctx.emit({
      itemType: 'action',
      actionType: 'MakeIssueEvent',
      dedupeKey: `issue-item:${ctx.toolCallId}`,
      data: {
        action_type: 'MakeIssueEvent',
        summary: `Opened issue #${issue.number}: ${title}`,
        number: issue.number,
        html_url: issue.html_url,
      },
    });
    return { output: `Opened issue #${issue.number}: ${issue.html_url}` };
  },
});

export const closeNumber = defineTool({
  name: 'close_number',
  description: 'Close an issue or pull request of the repository.',
  input: z.object({ number: z.number().int().positive() }),
  async execute(input, ctx) {
    await ctx.once(`close:${ctx.toolCallId}`, async () => {
      await ctx.github.rest.issues.update({
        ...repoParams(ctx),
        issue_number: input.number,
        state: 'closed',
      });
      return { closed: true };
    });
    await setNumberState(ctx.db, ctx.repo.id, input.number, 'closed');
    await ctx.emit({
      itemType: 'action',
      actionType: 'CloseNumberEvent',
      dedupeKey: `close-item:${ctx.toolCallId}`,
      data: { action_type: 'CloseNumberEvent', summary: `Closed #${input.number}`, number: input.number },
    });
    return { output: `Closed #${input.number}` };
  },
});

export const viewNumber = defineTool({
  name: 'view_number',
  description: 'Read an issue or pull request of the repository with its comments.',
  input: z.object({ number: z.number().int().positive() }),
  async execute(input, ctx) {
    const { data: issue } = await ctx.github.rest.issues.get({
      ...repoParams(ctx),
      issue_number: input.number,
    });
    const { data: comments } = await ctx.github.rest.issues.listComments({
      ...repoParams(ctx),
      issue_number: input.number,
      per_page: 100,
    });
    const kind = issue.pull_request ? 'Pull request' : 'Issue';
    const text = [
      `${kind} #${issue.number} (${issue.state}) by ${issue.user?.login ?? 'unknown'}: ${issue.title}`,
      issue.body ?? '',
      ...comments.map((c) => `--- ${c.user?.login ?? 'unknown'}:\n${c.body ?? ''}`),
    ].join('\n\n');
    await ctx.emit({
      itemType: 'action',
      actionType: 'ViewNumberEvent',
      data: {
        action_type: 'ViewNumberEvent',
        summary: `Read #${issue.number}: ${issue.title}`,
        number: issue.number,
      },
    });
    return { output: ctx.scrub(text) };
  },
});

export const subscribe = defineTool({
  name: 'subscribe',
  description:
    'Follow an issue or pull request of the repository: it is listed with your sources and its state (open, closed, merged) is kept up to date.',
  input: z.object({ number: z.number().int().positive() }),
  async execute(input, ctx) {
    const { data: issue } = await ctx.github.rest.issues.get({
      ...repoParams(ctx),
      issue_number: input.number,
    });
    if (issue.pull_request) {
      const { data: pull } = await ctx.github.rest.pulls.get({
        ...repoParams(ctx),
        pull_number: input.number,
      });
      const state = pull.merged_at ? 'merged' : pull.state === 'closed' ? 'closed' : 'open';
      await subscribeNumber(ctx.db, owner(ctx), {
        type: 'branch',
        number: pull.number,
        branch: pull.head.ref,
        state,
      });
    } else {
      const state = issue.state === 'closed' ? 'closed' : 'open';
      await subscribeNumber(ctx.db, owner(ctx), { type: 'issue', number: issue.number, state });
    }
    await ctx.emit({
      itemType: 'action',
      actionType: 'ActivitySummaryEvent',
      dedupeKey: `subscribe:${ctx.toolCallId}`,
      data: {
        action_type: 'ActivitySummaryEvent',
        summary: `Subscribed to #${issue.number}: ${issue.title}`,
        number: issue.number,
      },
    });
    return { output: `Subscribed to ${issue.pull_request ? 'pull request' : 'issue'} #${issue.number}` };
  },
});
