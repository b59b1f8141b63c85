import type { FastifyInstance } from 'fastify';
import { MergeError, mergePull, type MergeRefusal } from '../actions/merge-pull.js';
import { canMerge } from '../git/repo-files.js';
import { commitsBetween, diffFiles, getCommit, mergeBase, resolveRef } from '../git/repo-reads.js';
import { sessionUser } from '../oauth/session.js';
import { HttpError, type Context } from '../rest/context.js';
import type { HostIssue, HostRepo } from '../store/types.js';
import { conversationView, threadState, threadUrl } from './conversation.js';
import { renderDiff } from './diff-view.js';
import { esc } from './html.js';
import { sendPage } from './layout.js';
import { act } from './issue-pages.js';
import { runsSection } from './run-pages.js';
import {
  actorFor,
  FORM_BODY_LIMIT,
  findThread,
  guardWrite,
  repoBase,
  repoNav,
  visibleRepo,
  type NumberParams,
} from './repo-access.js';

const MERGE_REFUSALS: Record<MergeRefusal, string> = {
  merged: 'This pull request is already merged.',
  closed: 'This pull request is closed. Reopen it to merge it.',
  conflict:
    'This branch has conflicts with the base branch. Resolve them (merge or rebase and push), then merge.',
  busy: 'This pull request is being merged right now.',
  'missing-branch': 'The head or base branch no longer exists, so there is nothing to merge.',
};

/**
 * The commits a pull request brings: its branches while open; once merged, the merge commit's
 * parents, so the record survives the head branch's deletion.
 */
async function pullRange(ctx: Context, repo: HostRepo, issue: HostIssue) {
  const bare = ctx.host.repoPath(repo);
  const pull = issue.pull!;
  if (pull.merged && pull.mergeCommitSha) {
    const merge = await getCommit(bare, pull.mergeCommitSha);
    if (merge?.parents.length === 2) return { base: merge.parents[0]!, head: merge.parents[1]! };
  }
  const base = await resolveRef(bare, `refs/heads/${pull.base}`);
  const head = await resolveRef(bare, `refs/heads/${pull.head}`);
  return base && head ? { base, head } : null;
}

/** Pull request pages: Conversation (with Merge), Commits and Files changed, as GitHub's tabs. */
export function pullPageRoutes(app: FastifyInstance, ctx: Context): void {
  const { host } = ctx;

  const load = async (request: Parameters<typeof visibleRepo>[0] & { params: NumberParams }) => {
    const repo = visibleRepo(request, ctx, request.params);
    const issue = findThread(ctx, repo, request.params.number);
    const range = issue.pull ? await pullRange(ctx, repo, issue) : null;
    const bare = host.repoPath(repo);
    const commits = range ? await commitsBetween(bare, range.base, range.head) : [];
    return { repo, issue, range, commits };
  };

  const header = (repo: HostRepo, issue: HostIssue, commitCount: number, current: string) => {
    const pull = issue.pull!;
    const base = threadUrl(repo, issue);
    const tabs: [string, string, string][] = [
      ['conversation', base, `Conversation (${issue.comments.length})`],
      ['commits', `${base}/commits`, `Commits (${commitCount})`],
      ['files', `${base}/files`, 'Files changed'],
    ];
    return `${repoNav(ctx, repo, 'pulls')}
<p><strong>${esc(threadState(issue))}</strong> · ${esc(issue.author)} wants to merge ${commitCount} commit${commitCount === 1 ? '' : 's'} into <code>${esc(pull.base)}</code> from <code>${esc(pull.head)}</code></p>
<nav class="tabs" aria-label="Pull request"><ul>${tabs
      .map(
        ([key, href, label]) =>
          `<li><a href="${esc(href)}"${key === current ? ' aria-current="page"' : ''}>${esc(label)}</a></li>`,
      )
      .join('')}</ul></nav>`;
  };

  app.get<{ Params: NumberParams }>('/:owner/:repo/pull/:number', async (request, reply) => {
    const { repo, issue, range, commits } = await load(request);
    if (!issue.pull) return reply.redirect(threadUrl(repo, issue));
    const user = sessionUser(request, ctx);
    const canWrite = host.canWrite(actorFor(user), repo);
    const pull = issue.pull;
    let mergeBox: string;
    if (pull.merged) {
      const sha = pull.mergeCommitSha ?? '';
      mergeBox = `<p class="box">Merged${sha ? ` in <a href="${esc(`${repoBase(repo)}/commit/${sha}`)}"><code>${esc(sha.slice(0, 7))}</code></a>` : ''}${pull.mergedAt ? ` on ${esc(pull.mergedAt.slice(0, 10))}` : ''}.</p>`;
    } else if (issue.state === 'closed') {
      mergeBox = '<p class="box">This pull request is closed.</p>';
    } else {
      const clean = range ? await canMerge(host.repoPath(repo), range.base, range.head) : false;
      const status = !range
        ? MERGE_REFUSALS['missing-branch']
        : clean
          ? 'This branch has no conflicts with the base branch.'
          : MERGE_REFUSALS.conflict;
      const button =
        canWrite && clean
          ? `<form method="post" action="${esc(`${threadUrl(repo, issue)}/merge`)}"><button type="submit">Merge pull request</button></form>`
          : !canWrite && user
            ? '<p class="muted">Only people with write access can merge.</p>'
            : '';
      mergeBox = `<section class="box" aria-label="Merge"><p>${esc(status)}</p>${button}</section>`;
    }
    const checks = runsSection(ctx, repo, range?.head ?? null);
    const body = `${header(repo, issue, commits.length, 'conversation')}${conversationView(repo, issue, user, canWrite, checks + mergeBox)}`;
    return sendPage(request, reply, ctx, `${issue.title} #${issue.number}`, body);
  });

  app.get<{ Params: NumberParams }>('/:owner/:repo/pull/:number/commits', async (request, reply) => {
    const { repo, issue, commits } = await load(request);
    if (!issue.pull) throw new HttpError(404, 'Not Found');
    const items = commits
      .map(
        (c) =>
          `<li><a href="${esc(`${repoBase(repo)}/commit/${c.sha}`)}">${esc(c.message.split('\n')[0])}</a> <span class="muted">${esc(c.authorName)}</span> <code>${esc(c.sha.slice(0, 7))}</code></li>`,
      )
      .join('');
    const list = commits.length
      ? `<ol class="files" aria-label="Commits">${items}</ol>`
      : '<p class="muted">No commits.</p>';
    return sendPage(
      request,
      reply,
      ctx,
      `${issue.title} #${issue.number}`,
      header(repo, issue, commits.length, 'commits') + list,
    );
  });

  app.get<{ Params: NumberParams }>('/:owner/:repo/pull/:number/files', async (request, reply) => {
    const { repo, issue, range, commits } = await load(request);
    if (!issue.pull) throw new HttpError(404, 'Not Found');
    const bare = host.repoPath(repo);
    const from = range ? ((await mergeBase(bare, range.base, range.head)) ?? range.base) : null;
    const files = range && from ? await diffFiles(bare, from, range.head) : [];
    return sendPage(
      request,
      reply,
      ctx,
      `${issue.title} #${issue.number}`,
      header(repo, issue, commits.length, 'files') + renderDiff(files),
    );
  });

  app.post<{ Params: NumberParams }>(
    '/:owner/:repo/pull/:number/merge',
    { bodyLimit: FORM_BODY_LIMIT },
    async (request, reply) => {
      const allowed = guardWrite(request, reply, ctx, 'write');
      if (!allowed) return reply;
      const issue = findThread(ctx, allowed.repo, request.params.number);
      if (!issue.pull) throw new HttpError(404, 'Not Found');
      return act(
        request,
        reply,
        ctx,
        allowed.repo,
        issue,
        async () => {
          await mergePull(ctx, allowed.repo, issue, allowed.actor);
          return threadUrl(allowed.repo, issue);
        },
        (error) => (error instanceof MergeError ? MERGE_REFUSALS[error.reason] : error.message),
      );
    },
  );
}
