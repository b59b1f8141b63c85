import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { changeIssueState } from '../actions/change-issue-state.js';
import { commentOnIssue } from '../actions/comment-on-issue.js';
import { MAX_TITLE_LENGTH, openIssue } from '../actions/open-issue.js';
import { sessionUser } from '../oauth/session.js';
import { HttpError, type Context } from '../rest/context.js';
import type { HostIssue, HostRepo } from '../store/types.js';
import { conversationView, threadState, threadUrl } from './conversation.js';
import { esc } from './html.js';
import { sendPage, sendProblem } from './layout.js';
import {
  actorFor,
  FORM_BODY_LIMIT,
  findThread,
  guardWrite,
  repoBase,
  repoNav,
  visibleRepo,
  type NumberParams,
  type RepoParams,
} from './repo-access.js';

/** Issue pages, issue and pull request lists, and the comment / close / reopen forms both share. */
export function issuePageRoutes(app: FastifyInstance, ctx: Context): void {
  const { host } = ctx;

  for (const kind of ['issues', 'pulls'] as const) {
    app.get<{ Params: RepoParams; Querystring: { state?: string } }>(
      `/:owner/:repo/${kind}`,
      async (request, reply) => {
        const repo = visibleRepo(request, ctx, request.params);
        const state = request.query.state === 'closed' ? 'closed' : 'open';
        const full = `${repo.owner}/${repo.name}`;
        const threads = host.state.issues
          .filter((i) => i.repo === full && Boolean(i.pull) === (kind === 'pulls') && i.state === state)
          .sort((a, b) => b.number - a.number);
        const other = state === 'open' ? 'closed' : 'open';
        const items = threads
          .map(
            (i) =>
              `<li><a href="${esc(threadUrl(repo, i))}">${esc(i.title)}</a> <span class="muted">#${i.number} · ${esc(threadState(i))} · opened by ${esc(i.author)}</span></li>`,
          )
          .join('');
        const noun = kind === 'pulls' ? 'pull requests' : 'issues';
        const user = sessionUser(request, ctx);
        const canOpen = kind === 'issues' && user && host.canWrite(actorFor(user), repo);
        const body = `${repoNav(ctx, repo, kind)}
<p><a href="${esc(`${repoBase(repo)}/${kind}?state=${other}`)}">Show ${other} ${noun}</a>${canOpen ? ` · <a href="${esc(`${repoBase(repo)}/issues/new`)}">New issue</a>` : ''}</p>
${threads.length ? `<ul class="files" aria-label="${esc(`${state} ${noun}`)}">${items}</ul>` : `<p class="muted">No ${state} ${noun}.</p>`}`;
        return sendPage(request, reply, ctx, `${state === 'open' ? 'Open' : 'Closed'} ${noun}`, body);
      },
    );
  }

  app.get<{ Params: RepoParams }>('/:owner/:repo/issues/new', async (request, reply) => {
    const repo = visibleRepo(request, ctx, request.params);
    const user = sessionUser(request, ctx);
    if (!user || !host.canWrite(actorFor(user), repo)) {
      return sendProblem(
        request,
        reply,
        ctx,
        user ? 403 : 401,
        user ? 'Not allowed' : 'Sign in first',
        user ? 'You need write access to this repository.' : 'Sign in to open an issue.',
        { href: `${repoBase(repo)}/issues`, label: 'Back to the issues' },
      );
    }
    const body = `${repoNav(ctx, repo, 'issues')}
<form method="post" action="${esc(`${repoBase(repo)}/issues`)}" aria-label="New issue">
<label for="issue-title">Title</label><input id="issue-title" name="title" required maxlength="${MAX_TITLE_LENGTH}">
<label for="issue-body">Description</label><textarea id="issue-body" name="body" rows="8"></textarea>
<button type="submit">Submit new issue</button>
</form>`;
    return sendPage(request, reply, ctx, 'New issue', body);
  });

  app.post<{ Params: RepoParams; Body: { title?: unknown; body?: unknown } }>(
    '/:owner/:repo/issues',
    { bodyLimit: FORM_BODY_LIMIT },
    async (request, reply) => {
      const allowed = guardWrite(request, reply, ctx, 'write');
      if (!allowed) return reply;
      try {
        const issue = openIssue(ctx, allowed.repo, allowed.actor, request.body ?? {});
        return reply.redirect(threadUrl(allowed.repo, issue), 303);
      } catch (error) {
        if (!(error instanceof HttpError) || error.status >= 500) throw error;
        return sendProblem(request, reply, ctx, error.status, 'That did not work', error.message, {
          href: `${repoBase(allowed.repo)}/issues/new`,
          label: 'Back to the new issue',
        });
      }
    },
  );

  app.get<{ Params: NumberParams }>('/:owner/:repo/issues/:number', async (request, reply) => {
    const repo = visibleRepo(request, ctx, request.params);
    const issue = findThread(ctx, repo, request.params.number);
    if (issue.pull) return reply.redirect(threadUrl(repo, issue));
    const user = sessionUser(request, ctx);
    const canWrite = host.canWrite(actorFor(user), repo);
    const body = `${repoNav(ctx, repo, 'issues')}
<p><strong>${esc(threadState(issue))}</strong> · #${issue.number} opened by ${esc(issue.author)}</p>
${conversationView(repo, issue, user, canWrite)}`;
    return sendPage(request, reply, ctx, `${issue.title} #${issue.number}`, body);
  });

  // The forms post to the thread's own URL: /issues/{n}/… for issues, /pull/{n}/… for pull requests.
  for (const prefix of ['issues', 'pull'] as const) {
    app.post<{ Params: NumberParams; Body: { body?: unknown } }>(
      `/:owner/:repo/${prefix}/:number/comments`,
      { bodyLimit: FORM_BODY_LIMIT },
      async (request, reply) => {
        const allowed = guardWrite(request, reply, ctx, 'read');
        if (!allowed) return reply;
        const issue = findThread(ctx, allowed.repo, request.params.number);
        return act(request, reply, ctx, allowed.repo, issue, async () => {
          const comment = commentOnIssue(ctx, allowed.repo, issue, allowed.actor, request.body?.body);
          return `${threadUrl(allowed.repo, issue)}#issuecomment-${comment.id}`;
        });
      },
    );
    for (const [action, state] of [
      ['close', 'closed'],
      ['reopen', 'open'],
    ] as const) {
      app.post<{ Params: NumberParams }>(
        `/:owner/:repo/${prefix}/:number/${action}`,
        { bodyLimit: FORM_BODY_LIMIT },
        async (request, reply) => {
          const allowed = guardWrite(request, reply, ctx, 'write');
          if (!allowed) return reply;
          const issue = findThread(ctx, allowed.repo, request.params.number);
          return act(request, reply, ctx, allowed.repo, issue, async () => {
            await changeIssueState(ctx, allowed.repo, issue, allowed.actor, state);
            return threadUrl(allowed.repo, issue);
          });
        },
      );
    }
  }
}

/**
 * Runs a page's write and redirects to the page it returns (POST/redirect/GET); a refusal (empty
 * comment, merged pull request, conflict…) becomes a page saying so, with the way back.
 */
export async function act(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: Context,
  repo: HostRepo,
  issue: HostIssue,
  work: () => Promise<string>,
  explain: (error: HttpError) => string = (error) => error.message,
): Promise<FastifyReply> {
  let target: string;
  try {
    target = await work();
  } catch (error) {
    if (!(error instanceof HttpError) || error.status >= 500) throw error;
    return sendProblem(
      request,
      reply,
      ctx,
      error.status === 405 ? 409 : error.status,
      'That did not work',
      explain(error),
      {
        href: threadUrl(repo, issue),
        label: `Back to #${issue.number}`,
      },
    );
  }
  return reply.redirect(target, 303);
}
