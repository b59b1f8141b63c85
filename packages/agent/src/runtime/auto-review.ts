import { conversationItems } from '@tandem/db';
import { generateText } from 'ai';
import { and, desc, eq } from 'drizzle-orm';
import { resolveModel, type ResolvedModel, type toTokenUsage } from '../model/index.js';
import { sandboxGit } from '../sandbox/index.js';
import { appendSpice } from './history.js';
import { actionItem, updateItemData, type NewItem } from './items.js';
import type { RuntimeDeps } from './runtime-deps.js';
import type { WarmSandbox } from './warm-sandbox.js';

/** Diffs larger than this are cut (the reviewer is told), so one push cannot cost a fortune. */
const MAX_DIFF_CHARS = 60_000;
export const NO_FINDINGS = 'LGTM';

export const REVIEW_INSTRUCTIONS = `You are reviewing a change an AI coding agent just pushed.
List concrete problems only: bugs, missing tests for new behaviour, broken edge cases, security
issues, and code that does not do what the commit message says. One finding per line, each starting
with the file path. Do not praise, do not restate the diff, do not suggest style changes a formatter
would make. If there is nothing worth fixing, answer exactly ${NO_FINDINGS}.`;

export interface ReviewContext {
  deps: RuntimeDeps;
  agentId: string;
  reviewModelKey: string | null;
  repoFullName: string;
  sandbox: WarmSandbox;
  signal: AbortSignal;
  emit: (item: NewItem) => Promise<{ actionUuid: string }>;
  /** Charges the review call to the agent like any model call. */
  charge: (
    model: Extract<ResolvedModel, { ok: true }>,
    usage: Parameters<typeof toTokenUsage>[0],
    started: number,
    description: string,
  ) => Promise<unknown>;
}

/** The last reviewed commit, so each push is reviewed once and only for what it added. */
async function lastReviewedSha(ctx: ReviewContext): Promise<string | null> {
  const [last] = await ctx.deps.db
    .select({ data: conversationItems.data })
    .from(conversationItems)
    .where(
      and(eq(conversationItems.agentId, ctx.agentId), eq(conversationItems.actionType, 'AutoReviewEvent')),
    )
    .orderBy(desc(conversationItems.timestamp))
    .limit(1);
  const sha = last?.data.reviewed_sha;
  return typeof sha === 'string' ? sha : null;
}

async function diffSince(ctx: ReviewContext): Promise<{ head: string; diff: string } | null> {
  const { workspace } = ctx.sandbox;
  const head = (await sandboxGit(workspace, ['rev-parse', 'HEAD'])).stdout.trim();
  const since =
    (await lastReviewedSha(ctx)) ??
    (await sandboxGit(workspace, ['merge-base', `origin/${workspace.baseBranch}`, 'HEAD'])).stdout.trim();
  if (!head || !since || since === head) return null;
  const result = await sandboxGit(
    workspace,
    ['diff', '--no-color', '--no-ext-diff', '--no-textconv', `${since}..${head}`],
    {
      maxStdoutBytes: MAX_DIFF_CHARS * 4,
    },
  );
  if (result.exitCode !== 0 || !result.stdout.trim()) return null;
  const diff =
    result.stdout.length > MAX_DIFF_CHARS
      ? `${result.stdout.slice(0, MAX_DIFF_CHARS)}\n[diff cut at ${MAX_DIFF_CHARS} characters]`
      : result.stdout;
  return { head, diff: ctx.sandbox.scrub(diff) };
}

/**
 * After a push, the agent's review model (when set and available here) reviews what the push added.
 * Findings become an AutoReviewEvent in the feed and a message in the agent's context, so its next
 * step addresses them; 'LGTM' completes the review with nothing to do.
 */
export async function autoReview(ctx: ReviewContext): Promise<void> {
  if (!ctx.reviewModelKey) return;
  const model = resolveModel(ctx.reviewModelKey, ctx.deps.models);
  if (!model.ok) {
    // A deployment without the reviewer's provider key simply has no auto-review.
    ctx.deps.logger.warn({ agentId: ctx.agentId, reason: model.reason }, 'auto-review skipped');
    return;
  }
  const change = await diffSince(ctx);
  if (!change) return;
  const { actionUuid } = await ctx.emit(
    actionItem('AutoReviewEvent', {
      auto_review_status: 'in_progress',
      summary: `Reviewing the push with ${model.option.label}…`,
      reviewed_sha: change.head,
    }),
  );
  const started = performance.now();
  const result = await generateText({
    model: model.model,
    system: REVIEW_INSTRUCTIONS,
    messages: [
      {
        role: 'user',
        content: `Review this change to ${ctx.repoFullName} (up to ${change.head.slice(0, 7)}):\n\`\`\`diff\n${change.diff}\n\`\`\``,
      },
    ],
    abortSignal: ctx.signal,
  });
  await ctx.charge(model, result.usage, started, `${model.option.label} auto-review`);
  const findings = ctx.sandbox.scrub(result.text.trim());
  const clean = findings === '' || findings.toUpperCase().startsWith(NO_FINDINGS);
  await updateItemData(
    ctx.deps.db,
    ctx.agentId,
    { actionUuid, pid: null, itemType: 'action' },
    {
      action_type: 'AutoReviewEvent',
      auto_review_status: 'completed',
      summary: clean ? 'Auto-review found nothing to fix' : 'Auto-review findings',
      auto_review: clean ? NO_FINDINGS : findings,
      reviewed_sha: change.head,
    },
  );
  if (clean) return;
  await appendSpice(ctx.deps.db, ctx.agentId, {
    role: 'user',
    content: `Auto-review of your latest push (${change.head.slice(0, 7)}):\n${findings}\n\nAddress these findings, or explain briefly why one does not apply, then continue.`,
  });
}
