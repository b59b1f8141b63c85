import type { FastifyInstance } from 'fastify';
import { announceIssueChange } from '../actions/announce-issue-change.js';
import { commentOnIssue } from '../actions/comment-on-issue.js';
import { openIssue } from '../actions/open-issue.js';
import { HttpError, paginate, readableRepo, writableRepo, type Context } from './context.js';
import { applyIssueEdit, findIssue } from './issue-model.js';

type RepoParams = { owner: string; repo: string };
type NumberParams = RepoParams & { number: string };

export function issueRoutes(app: FastifyInstance, ctx: Context): void {
  const { host, shapes } = ctx;

  app.get<{ Params: RepoParams; Querystring: { state?: string } }>(
    '/repos/:owner/:repo/issues',
    async (request, reply) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      const state = request.query.state ?? 'open';
      const full = `${repo.owner}/${repo.name}`;
      const issues = host.state.issues
        .filter((i) => i.repo === full && (state === 'all' || i.state === state))
        .sort((a, b) => b.number - a.number);
      return paginate(request, issues, (n, v) => reply.header(n, v), ctx).map((i) => shapes.issue(repo, i));
    },
  );

  app.post<{ Params: RepoParams; Body: { title?: unknown; body?: unknown } }>(
    '/repos/:owner/:repo/issues',
    async (request, reply) => {
      const { repo, actor } = writableRepo(request, ctx, request.params.owner, request.params.repo);
      const issue = openIssue(ctx, repo, actor, request.body ?? {});
      return reply.status(201).send(shapes.issue(repo, issue));
    },
  );

  app.get<{ Params: NumberParams }>('/repos/:owner/:repo/issues/:number', async (request) => {
    const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
    return shapes.issue(repo, findIssue(ctx, repo, request.params.number));
  });

  app.patch<{ Params: NumberParams; Body: { title?: unknown; body?: unknown; state?: unknown } }>(
    '/repos/:owner/:repo/issues/:number',
    async (request) => {
      const { repo, actor } = writableRepo(request, ctx, request.params.owner, request.params.repo);
      const issue = findIssue(ctx, repo, request.params.number);
      const changes = host.store.update(() => applyIssueEdit(issue, request.body ?? {}));
      for (const change of changes) await announceIssueChange(ctx, repo, issue, actor, change);
      return shapes.issue(repo, issue);
    },
  );

  app.get<{ Params: NumberParams }>('/repos/:owner/:repo/issues/:number/comments', async (request, reply) => {
    const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
    const issue = findIssue(ctx, repo, request.params.number);
    return paginate(request, issue.comments, (n, v) => reply.header(n, v), ctx).map((c) =>
      shapes.comment(repo, issue, c),
    );
  });

  app.post<{ Params: NumberParams; Body: { body?: unknown } }>(
    '/repos/:owner/:repo/issues/:number/comments',
    async (request, reply) => {
      // Like GitHub: anyone signed in who can read the repository may comment (a public
      // repository's issues take comments from everyone); an App needs its installation there.
      const { repo, actor } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      if (actor.kind === 'anonymous') throw new HttpError(401, 'Requires authentication');
      if (actor.kind === 'installation' && !ctx.host.canWrite(actor, repo))
        throw new HttpError(403, 'Resource not accessible by integration');
      const issue = findIssue(ctx, repo, request.params.number);
      const comment = commentOnIssue(ctx, repo, issue, actor, request.body?.body);
      return reply.status(201).send(shapes.comment(repo, issue, comment));
    },
  );
}
