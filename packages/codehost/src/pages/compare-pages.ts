import type { FastifyInstance } from 'fastify';
import { sameOrigin, sessionUser } from '../oauth/session.js';
import type { Context } from '../rest/context.js';
import { eventBase } from '../rest/issue-model.js';
import { pullJson } from '../rest/pull-json.js';
import { compare } from '../rest/repos.js';
import { openPull } from '../rest/pulls.js';
import { renderDiff } from './diff-view.js';
import { esc, hidden, userPicker } from './html.js';
import { refuseCrossSite, sendPage, sendProblem } from './layout.js';
import { FORM_BODY_LIMIT, repoBase, repoNav, visibleRepo, type RepoParams } from './repo-access.js';

/** Compare two branches and open a pull request from them (the product's Create PR lands here). */
export function comparePageRoutes(app: FastifyInstance, ctx: Context): void {
  const { host } = ctx;

  app.get<{ Params: RepoParams & { '*': string }; Querystring: { title?: string; body?: string } }>(
    '/:owner/:repo/compare/*',
    async (request, reply) => {
      const repo = visibleRepo(request, ctx, request.params);
      const [base = repo.defaultBranch, head = ''] = request.params['*'].split('...');
      const user = sessionUser(request, ctx);
      if (!user) {
        const body =
          '<p>Sign in to open a pull request.</p>' +
          userPicker(host.state.users, '/session', { return_to: request.url });
        return sendPage(request, reply, ctx, 'Open a pull request', body);
      }
      const comparison = await compare(host, repo, ctx, base, head).catch(() => null);
      if (!comparison)
        return sendPage(
          request,
          reply,
          ctx,
          'Nothing to compare',
          `<p>${esc(base)} or ${esc(head)} does not exist.</p>`,
          404,
        );
      const files = comparison.files.map((f) => ({
        filename: f.filename,
        previousFilename: f.previous_filename ?? null,
        status: f.status as 'added' | 'removed' | 'modified' | 'renamed',
        sha: f.sha,
        additions: f.additions,
        deletions: f.deletions,
        patch: f.patch ?? '',
      }));
      const body = `${repoNav(ctx, repo, 'pulls')}
        <p>Merging ${comparison.ahead_by} commit(s) from <code>${esc(head)}</code> into <code>${esc(base)}</code>.</p>
        <form method="post" action="${esc(`${repoBase(repo)}/compare`)}" aria-label="Open a pull request">${hidden({ base, head })}
          <label>Title<input name="title" required value="${esc(request.query.title ?? comparison.commits.at(-1)?.commit.message.split('\n')[0] ?? '')}"></label>
          <label>Description<textarea name="body" rows="8">${esc(request.query.body ?? '')}</textarea></label>
          <button type="submit">Create pull request</button>
        </form>
        <h2>Files changed</h2>${renderDiff(files)}`;
      return sendPage(request, reply, ctx, 'Open a pull request', body);
    },
  );

  app.post<{ Params: RepoParams; Body: Record<string, string | undefined> }>(
    '/:owner/:repo/compare',
    { bodyLimit: FORM_BODY_LIMIT },
    async (request, reply) => {
      if (!sameOrigin(request, ctx)) return refuseCrossSite(request, reply, ctx);
      const repo = visibleRepo(request, ctx, request.params);
      const user = sessionUser(request, ctx);
      if (!user || !host.canWrite({ kind: 'user', user }, repo)) {
        return sendProblem(request, reply, ctx, 403, 'Cannot open a pull request', 'You need write access.');
      }
      const issue = await openPull(ctx, repo, user.login, request.body ?? {});
      ctx.webhooks.send('pull_request', {
        action: 'opened',
        number: issue.number,
        pull_request: await pullJson(ctx, repo, issue),
        ...eventBase(ctx, repo, { kind: 'user', user }),
      });
      ctx.ci?.pullOpened(repo, issue, { kind: 'user', user });
      return reply.redirect(`${repoBase(repo)}/pull/${issue.number}`, 303);
    },
  );
}
