import type { FastifyInstance } from 'fastify';
import type { Actor } from '../host.js';
import type { HostIssue, HostRepo } from '../store/types.js';
import { HttpError, paginate, readableRepo, writableRepo, type Context } from './context.js';

type RepoParams = { owner: string; repo: string };
type NumberParams = RepoParams & { number: string };

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
      const title = typeof request.body?.title === 'string' ? request.body.title.trim() : '';
      if (!title) throw new HttpError(422, 'Validation Failed: title is missing');
      const now = new Date().toISOString();
      const issue: HostIssue = {
        number: nextNumber(ctx, repo),
        repo: `${repo.owner}/${repo.name}`,
        title,
        body: typeof request.body?.body === 'string' ? request.body.body : '',
        author: host.actorLogin(actor),
        state: 'open',
        createdAt: now,
        updatedAt: now,
        closedAt: null,
        comments: [],
      };
      host.store.update((s) => s.issues.push(issue));
      ctx.webhooks.send('issues', {
        action: 'opened',
        issue: shapes.issue(repo, issue),
        ...eventBase(ctx, repo, actor),
      });
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
      const action = applyIssueEdit(issue, request.body ?? {});
      host.store.update(() => undefined);
      if (action) {
        const event = issue.pull ? 'pull_request' : 'issues';
        const key = issue.pull ? 'pull_request' : 'issue';
        ctx.webhooks.send(event, {
          action,
          number: issue.number,
          [key]: shapes.issue(repo, issue),
          ...eventBase(ctx, repo, actor),
        });
      }
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
      const { repo, actor } = writableRepo(request, ctx, request.params.owner, request.params.repo);
      const issue = findIssue(ctx, repo, request.params.number);
      const body = typeof request.body?.body === 'string' ? request.body.body : '';
      if (!body.trim()) throw new HttpError(422, 'Validation Failed: body is missing');
      const comment = {
        id: host.store.nextId(),
        author: host.actorLogin(actor),
        body,
        createdAt: new Date().toISOString(),
      };
      host.store.update(() => {
        issue.comments.push(comment);
        issue.updatedAt = comment.createdAt;
      });
      ctx.webhooks.send('issue_comment', {
        action: 'created',
        issue: shapes.issue(repo, issue),
        comment: shapes.comment(repo, issue, comment),
        ...eventBase(ctx, repo, actor),
      });
      return reply.status(201).send(shapes.comment(repo, issue, comment));
    },
  );
}

/** Applies title/body/state edits; returns the webhook action they amount to, if any. */
export function applyIssueEdit(issue: HostIssue, body: { title?: unknown; body?: unknown; state?: unknown }) {
  let action: string | null = null;
  if (typeof body.title === 'string' && body.title !== issue.title) {
    issue.title = body.title;
    action = 'edited';
  }
  if (typeof body.body === 'string' && body.body !== issue.body) {
    issue.body = body.body;
    action = 'edited';
  }
  if ((body.state === 'open' || body.state === 'closed') && body.state !== issue.state) {
    if (issue.pull?.merged && body.state === 'open')
      throw new HttpError(422, 'Cannot reopen a merged pull request');
    issue.state = body.state;
    issue.closedAt = body.state === 'closed' ? new Date().toISOString() : null;
    action = body.state === 'closed' ? 'closed' : 'reopened';
  }
  if (action) issue.updatedAt = new Date().toISOString();
  return action;
}
