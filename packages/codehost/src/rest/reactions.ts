import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { HostReaction, HostRepo } from '../store/types.js';
import { HttpError, readableRepo, type Context } from './context.js';
import { findIssue } from './issue-model.js';

type RepoParams = { owner: string; repo: string };

/** GitHub's reaction contents; anything else is a 422 like GitHub's. */
const CONTENTS = new Set(['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes']);

/**
 * Reactions on issues and pull requests (their body), issue comments and pull-request review
 * comments, as GitHub's REST API has them: a new reaction answers 201, the same account's same
 * reaction again answers 200 with the existing one.
 */
export function reactionRoutes(app: FastifyInstance, ctx: Context): void {
  const { host, shapes } = ctx;

  const json = (reaction: HostReaction) => ({
    id: reaction.id,
    node_id: `REA_${reaction.id}`,
    user: shapes.account(reaction.author),
    content: reaction.content,
    created_at: reaction.createdAt,
  });

  /** The repository, if the caller may react there (anyone signed in who can read it). */
  function target(request: FastifyRequest<{ Params: RepoParams }>) {
    const found = readableRepo(request, ctx, request.params.owner, request.params.repo);
    if (found.actor.kind === 'anonymous') throw new HttpError(401, 'Requires authentication');
    return found;
  }

  function issueComment(repo: HostRepo, id: number) {
    const full = `${repo.owner}/${repo.name}`;
    for (const issue of host.state.issues)
      if (issue.repo === full && issue.comments.some((c) => c.id === id)) return true;
    return false;
  }

  function reviewComment(repo: HostRepo, id: number) {
    const full = `${repo.owner}/${repo.name}`;
    return host.state.issues.some(
      (issue) => issue.repo === full && issue.pull?.reviewComments.some((c) => c.id === id),
    );
  }

  function react(request: FastifyRequest<{ Params: RepoParams; Body: unknown }>, subject: string) {
    const { actor } = target(request);
    const content = (request.body as { content?: unknown } | null)?.content;
    if (typeof content !== 'string' || !CONTENTS.has(content))
      throw new HttpError(422, 'Validation Failed: content is not a valid reaction');
    const author = host.actorLogin(actor);
    const existing = (host.state.reactions ?? []).find(
      (r) => r.subject === subject && r.author === author && r.content === content,
    );
    if (existing) return { status: 200, body: json(existing) };
    const reaction: HostReaction = {
      id: host.store.nextId(),
      subject,
      content,
      author,
      createdAt: new Date().toISOString(),
    };
    host.store.update((s) => {
      s.reactions ??= [];
      s.reactions.push(reaction);
    });
    return { status: 201, body: json(reaction) };
  }

  const list = (subject: string) =>
    (host.state.reactions ?? []).filter((r) => r.subject === subject).map(json);

  app.post<{ Params: RepoParams & { id: string }; Body: unknown }>(
    '/repos/:owner/:repo/issues/comments/:id/reactions',
    async (request, reply) => {
      const { repo } = target(request);
      const id = Number(request.params.id);
      if (!issueComment(repo, id)) throw new HttpError(404, 'Not Found');
      const { status, body } = react(request, `comment:${id}`);
      return reply.status(status).send(body);
    },
  );
  app.get<{ Params: RepoParams & { id: string } }>(
    '/repos/:owner/:repo/issues/comments/:id/reactions',
    async (request) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      const id = Number(request.params.id);
      if (!issueComment(repo, id)) throw new HttpError(404, 'Not Found');
      return list(`comment:${id}`);
    },
  );

  app.post<{ Params: RepoParams & { number: string }; Body: unknown }>(
    '/repos/:owner/:repo/issues/:number/reactions',
    async (request, reply) => {
      const { repo } = target(request);
      const issue = findIssue(ctx, repo, request.params.number);
      const { status, body } = react(request, `issue:${issue.repo}#${issue.number}`);
      return reply.status(status).send(body);
    },
  );
  app.get<{ Params: RepoParams & { number: string } }>(
    '/repos/:owner/:repo/issues/:number/reactions',
    async (request) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      const issue = findIssue(ctx, repo, request.params.number);
      return list(`issue:${issue.repo}#${issue.number}`);
    },
  );

  app.post<{ Params: RepoParams & { id: string }; Body: unknown }>(
    '/repos/:owner/:repo/pulls/comments/:id/reactions',
    async (request, reply) => {
      const { repo } = target(request);
      const id = Number(request.params.id);
      if (!reviewComment(repo, id)) throw new HttpError(404, 'Not Found');
      const { status, body } = react(request, `review_comment:${id}`);
      return reply.status(status).send(body);
    },
  );
  app.get<{ Params: RepoParams & { id: string } }>(
    '/repos/:owner/:repo/pulls/comments/:id/reactions',
    async (request) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      const id = Number(request.params.id);
      if (!reviewComment(repo, id)) throw new HttpError(404, 'Not Found');
      return list(`review_comment:${id}`);
    },
  );
}
