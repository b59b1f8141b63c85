import type { Actor } from '../host.js';
import type { HostIssue, HostRepo } from '../store/types.js';
import { HttpError, type Context } from './context.js';

export function findIssue(ctx: Context, repo: HostRepo, number: string): HostIssue {
  const full = `${repo.owner}/${repo.name}`;
  const issue = ctx.host.state.issues.find((i) => i.repo === full && i.number === Number(number));
  if (!issue) throw new HttpError(404, 'Not Found');
  return issue;
}

export function nextNumber(ctx: Context, repo: HostRepo): number {
  const full = `${repo.owner}/${repo.name}`;
  return Math.max(0, ...ctx.host.state.issues.filter((i) => i.repo === full).map((i) => i.number)) + 1;
}

/** The common part of every repository webhook payload. */
export function eventBase(ctx: Context, repo: HostRepo, actor: Actor) {
  const installation = ctx.host.installationFor(repo.owner);
  return {
    repository: ctx.shapes.repo(repo),
    sender: ctx.shapes.account(ctx.host.actorLogin(actor)),
    ...(installation ? { installation: { id: installation.id, node_id: `MDIz_${installation.id}` } } : {}),
  };
}

/** Applies title/body/state edits; returns the webhook action they amount to, if any. */
/** One webhook's worth of change: GitHub sends `edited` (with what changed) apart from a state change. */
export interface IssueChange {
  action: string;
  changes?: Record<string, unknown>;
}

export function applyIssueEdit(
  issue: HostIssue,
  body: { title?: unknown; body?: unknown; state?: unknown },
): IssueChange[] {
  // Refusals come first, so a refused edit changes nothing.
  if (issue.pull?.merged && body.state === 'open' && issue.state !== 'open')
    throw new HttpError(422, 'Cannot reopen a merged pull request');
  const changes: Record<string, { from: string }> = {};
  if (typeof body.title === 'string' && body.title !== issue.title) {
    changes.title = { from: issue.title };
    issue.title = body.title;
  }
  if (typeof body.body === 'string' && body.body !== issue.body) {
    changes.body = { from: issue.body };
    issue.body = body.body;
  }
  const result: IssueChange[] = Object.keys(changes).length ? [{ action: 'edited', changes }] : [];
  if ((body.state === 'open' || body.state === 'closed') && body.state !== issue.state) {
    issue.state = body.state;
    issue.closedAt = body.state === 'closed' ? new Date().toISOString() : null;
    result.push({ action: body.state === 'closed' ? 'closed' : 'reopened' });
  }
  if (result.length) issue.updatedAt = new Date().toISOString();
  return result;
}
