import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../host.js';
import { sameOrigin, sessionUser } from '../oauth/session.js';
import { HttpError, type Context } from '../rest/context.js';
import type { HostIssue, HostRepo, HostUser } from '../store/types.js';
import { esc } from './html.js';
import { refuseCrossSite, sendProblem, signInHref } from './layout.js';

export type RepoParams = { owner: string; repo: string };
export type NumberParams = RepoParams & { number: string };

/** Form posts are small; the server's large limit is for git pushes. */
export const FORM_BODY_LIMIT = 1024 * 1024;

export function actorFor(user: HostUser | undefined): Actor {
  return user ? { kind: 'user', user } : { kind: 'anonymous' };
}

/** The repository if this browser may read it; otherwise GitHub's 404 (the error handler's page). */
export function visibleRepo(request: FastifyRequest, ctx: Context, params: RepoParams): HostRepo {
  const repo = ctx.host.repo(params.owner, params.repo);
  if (!repo || !ctx.host.canRead(actorFor(sessionUser(request, ctx)), repo))
    throw new HttpError(404, 'Not Found');
  return repo;
}

export const repoBase = (repo: HostRepo) =>
  `/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}`;

/** A URL path from repository path segments, each encoded. */
export const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

export function findThread(ctx: Context, repo: HostRepo, number: string): HostIssue {
  const full = `${repo.owner}/${repo.name}`;
  const issue = /^\d{1,9}$/.test(number)
    ? ctx.host.state.issues.find((i) => i.repo === full && i.number === Number(number))
    : undefined;
  if (!issue) throw new HttpError(404, 'Not Found');
  return issue;
}

/** The repository's tabs, with the current one marked for screen readers. */
export function repoNav(
  ctx: Context,
  repo: HostRepo,
  current: 'code' | 'issues' | 'pulls' | 'commits',
): string {
  const full = `${repo.owner}/${repo.name}`;
  const open = (pull: boolean) =>
    ctx.host.state.issues.filter((i) => i.repo === full && Boolean(i.pull) === pull && i.state === 'open')
      .length;
  const base = repoBase(repo);
  const tabs: [typeof current, string, string][] = [
    ['code', base, 'Code'],
    ['issues', `${base}/issues`, `Issues (${open(false)})`],
    ['pulls', `${base}/pulls`, `Pull requests (${open(true)})`],
    ['commits', `${base}/commits/${encodePath(repo.defaultBranch)}`, 'Commits'],
  ];
  return `<p>${esc(repo.owner)} / <a href="${esc(base)}"><strong>${esc(repo.name)}</strong></a> <span class="muted">${repo.private ? 'Private' : 'Public'}</span></p>
<nav class="tabs" aria-label="Repository"><ul>${tabs
    .map(
      ([key, href, label]) =>
        `<li><a href="${esc(href)}"${key === current ? ' aria-current="page"' : ''}>${esc(label)}</a></li>`,
    )
    .join('')}</ul></nav>`;
}

/**
 * Everything a page's write must pass, in order: the form came from this host (CSRF), someone is
 * signed in, the repository is visible to them (else 404, as GitHub), and they have the access the
 * action needs. Sends the refusal itself and returns null when one fails.
 */
export function guardWrite(
  request: FastifyRequest<{ Params: RepoParams }>,
  reply: FastifyReply,
  ctx: Context,
  need: 'read' | 'write',
): { repo: HostRepo; user: HostUser; actor: Actor } | null {
  if (!sameOrigin(request, ctx)) {
    refuseCrossSite(request, reply, ctx);
    return null;
  }
  const user = sessionUser(request, ctx);
  if (!user) {
    const back = `/${request.params.owner}/${request.params.repo}`;
    sendProblem(request, reply, ctx, 401, 'Sign in first', 'Sign in to do that.', {
      href: signInHref(back),
      label: 'Sign in',
    });
    return null;
  }
  const repo = visibleRepo(request, ctx, request.params);
  const actor = actorFor(user);
  if (need === 'write' && !ctx.host.canWrite(actor, repo)) {
    sendProblem(request, reply, ctx, 403, 'Not allowed', 'You need write access to this repository.', {
      href: repoBase(repo),
      label: 'Back to the repository',
    });
    return null;
  }
  return { repo, user, actor };
}
