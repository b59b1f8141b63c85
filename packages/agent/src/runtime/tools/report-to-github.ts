import { agentSources, conversationItems } from '@tandem/db';
import { and, asc, desc, eq, isNotNull } from 'drizzle-orm';
import type { ToolContext } from './types.js';

/** Message kinds that came from the code host (workspace §3 Message action_type). */
const CODE_HOST_KINDS = new Set(['issue_comment', 'pull_request', 'pull_request_review', 'send_comments']);

type Origin = { number: number; isIssue: boolean };

/** Where a person's message came from, when it came from an issue or PR of this agent's repository. */
function originOf(
  ctx: ToolContext,
  item: { actionType: string | null; data: Record<string, unknown> } | undefined,
): Origin | null {
  if (!item?.actionType || !CODE_HOST_KINDS.has(item.actionType)) return null;
  const { number, repository_name: repository, action } = item.data;
  if (typeof number !== 'number' || repository !== ctx.repo.fullName) return null;
  return {
    number,
    isIssue: item.actionType === 'issue_comment' && action !== undefined && !isPullUrl(item.data),
  };
}

const isPullUrl = (data: Record<string, unknown>) =>
  typeof data.html_url === 'string' && /\/pull\/\d+/.test(data.html_url);

/**
 * The issue the agent was started from on the code host (tagged in it, or always-ask), if any:
 * the pull request it opens closes that issue.
 */
export async function startedFromIssue(ctx: ToolContext): Promise<number | null> {
  const [first] = await ctx.db
    .select({ actionType: conversationItems.actionType, data: conversationItems.data })
    .from(conversationItems)
    .where(and(eq(conversationItems.agentId, ctx.agent.id), eq(conversationItems.itemType, 'message')))
    .orderBy(asc(conversationItems.timestamp))
    .limit(1);
  const origin = originOf(ctx, first);
  return origin?.isIssue ? origin.number : null;
}

/** A pull request body that closes `issue` (GitHub's closing keyword), unless it already says so. */
export function closingBody(body: string, issue: number | null): string {
  if (issue === null) return body;
  if (new RegExp(`\\b(close[sd]?|fix(e[sd])?|resolve[sd]?)\\s+#${issue}\\b`, 'i').test(body)) return body;
  return `${body.trimEnd()}${body.trim() ? '\n\n' : ''}Closes #${issue}`;
}

/**
 * When the work was asked for on the code host (the latest person's message came from an issue or
 * pull request), the agent answers there with what it did, once per task_complete call.
 */
export async function reportToGitHub(ctx: ToolContext, summary: string): Promise<void> {
  const [latest] = await ctx.db
    .select({ actionType: conversationItems.actionType, data: conversationItems.data })
    .from(conversationItems)
    .where(
      and(
        eq(conversationItems.agentId, ctx.agent.id),
        eq(conversationItems.itemType, 'message'),
        isNotNull(conversationItems.userId),
      ),
    )
    .orderBy(desc(conversationItems.timestamp))
    .limit(1);
  const origin = originOf(ctx, latest);
  if (!origin) return;
  const [pull] = await ctx.db
    .select({ number: agentSources.number })
    .from(agentSources)
    .where(
      and(
        eq(agentSources.agentId, ctx.agent.id),
        eq(agentSources.type, 'branch'),
        eq(agentSources.branch, ctx.workspace.branch),
        isNotNull(agentSources.number),
      ),
    )
    .limit(1);
  const link = pull?.number && pull.number !== origin.number ? `\n\nPull request: #${pull.number}` : '';
  const body = `${ctx.scrub(summary)}${link}`;
  const comment = await ctx.once(`report:${ctx.toolCallId}`, async () => {
    const { data } = await ctx.github.rest.issues.createComment({
      owner: ctx.repo.owner,
      repo: ctx.repo.name,
      issue_number: origin.number,
      body,
    });
    return { html_url: data.html_url };
  });
  await ctx.emit({
    itemType: 'number_lifecycle',
    dedupeKey: `report-item:${ctx.toolCallId}`,
    data: {
      repository_name: ctx.repo.fullName,
      action: 'commented',
      number: origin.number,
      html_url: comment.html_url,
    },
  });
}
