import type { FastifyInstance } from 'fastify';
import { announceIssueChange } from '../actions/announce-issue-change.js';
import { mergePull } from '../actions/merge-pull.js';
import { commitsBetween, diffFiles, mergeBase, resolveRef } from '../git/repo-reads.js';
import type { HostIssue, HostRepo, HostReview, HostReviewComment } from '../store/types.js';
import { HttpError, paginate, readableRepo, writableRepo, type Context } from './context.js';
import { fileJson } from './repos.js';
import { applyIssueEdit, eventBase, findIssue, nextNumber } from './issue-model.js';
import { pullJson, simplePull } from './pull-json.js';

type RepoParams = { owner: string; repo: string };
type NumberParams = RepoParams & { number: string };

function findPull(ctx: Context, repo: HostRepo, number: string): HostIssue {
  const issue = findIssue(ctx, repo, number);
  if (!issue.pull) throw new HttpError(404, 'Not Found');
  return issue;
}

export function pullRoutes(app: FastifyInstance, ctx: Context): void {
  const { host, shapes } = ctx;

  app.get<{ Params: RepoParams; Querystring: { state?: string; head?: string; base?: string } }>(
    '/repos/:owner/:repo/pulls',
    async (request, reply) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      const { state = 'open', head, base } = request.query;
      const full = `${repo.owner}/${repo.name}`;
      const headBranch = head?.includes(':') ? head.split(':')[1] : head;
      const pulls = host.state.issues
        .filter((i) => i.repo === full && i.pull)
        .filter((i) => state === 'all' || i.state === state)
        .filter((i) => !headBranch || i.pull!.head === headBranch)
        .filter((i) => !base || i.pull!.base === base)
        .sort((a, b) => b.number - a.number);
      const page = paginate(request, pulls, (n, v) => reply.header(n, v), ctx);
      return Promise.all(page.map((i) => pullJson(ctx, repo, i)));
    },
  );

  app.post<{ Params: RepoParams; Body: Record<string, unknown> }>(
    '/repos/:owner/:repo/pulls',
    async (request, reply) => {
      const { repo, actor } = writableRepo(request, ctx, request.params.owner, request.params.repo);
      const issue = await openPull(ctx, repo, host.actorLogin(actor), request.body ?? {});
      ctx.webhooks.send('pull_request', {
        action: 'opened',
        number: issue.number,
        pull_request: await pullJson(ctx, repo, issue),
        ...eventBase(ctx, repo, actor),
      });
      ctx.ci?.pullOpened(repo, issue, actor);
      return reply.status(201).send(await pullJson(ctx, repo, issue));
    },
  );

  app.get<{ Params: NumberParams }>('/repos/:owner/:repo/pulls/:number', async (request) => {
    const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
    return pullJson(ctx, repo, findPull(ctx, repo, request.params.number));
  });

  app.patch<{ Params: NumberParams; Body: Record<string, unknown> }>(
    '/repos/:owner/:repo/pulls/:number',
    async (request) => {
      const { repo, actor } = writableRepo(request, ctx, request.params.owner, request.params.repo);
      const issue = findPull(ctx, repo, request.params.number);
      const body = request.body ?? {};
      const changes = host.store.update(() => {
        const edit = applyIssueEdit(issue, body);
        if (typeof body.base === 'string' && body.base !== issue.pull!.base) {
          const from = issue.pull!.base;
          issue.pull!.base = body.base;
          const edited = edit.find((c) => c.action === 'edited');
          const base = { ref: { from } };
          if (edited) edited.changes = { ...edited.changes, base };
          else edit.unshift({ action: 'edited', changes: { base } });
        }
        return edit;
      });
      for (const change of changes) await announceIssueChange(ctx, repo, issue, actor, change);
      return pullJson(ctx, repo, issue);
    },
  );

  app.put<{ Params: NumberParams; Body: { commit_title?: unknown } }>(
    '/repos/:owner/:repo/pulls/:number/merge',
    async (request) => {
      const { repo, actor } = writableRepo(request, ctx, request.params.owner, request.params.repo);
      const issue = findPull(ctx, repo, request.params.number);
      const title = typeof request.body?.commit_title === 'string' ? request.body.commit_title : undefined;
      const sha = await mergePull(ctx, repo, issue, actor, title);
      return { sha, merged: true, message: 'Pull Request successfully merged' };
    },
  );

  app.get<{ Params: NumberParams }>('/repos/:owner/:repo/pulls/:number/commits', async (request, reply) => {
    const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
    const json = await pullJson(ctx, repo, findPull(ctx, repo, request.params.number));
    const commits = await commitsBetween(host.repoPath(repo), json.base.sha, json.head.sha);
    return paginate(request, commits, (n, v) => reply.header(n, v), ctx).map((c) => shapes.commit(repo, c));
  });

  app.get<{ Params: NumberParams }>('/repos/:owner/:repo/pulls/:number/files', async (request, reply) => {
    const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
    const json = await pullJson(ctx, repo, findPull(ctx, repo, request.params.number));
    const bare = host.repoPath(repo);
    const base = (await mergeBase(bare, json.base.sha, json.head.sha)) ?? json.base.sha;
    const files = await diffFiles(bare, base, json.head.sha);
    return paginate(request, files, (n, v) => reply.header(n, v), ctx).map((f) =>
      fileJson(ctx, repo, json.head.sha, f),
    );
  });

  app.get<{ Params: NumberParams }>('/repos/:owner/:repo/pulls/:number/reviews', async (request) => {
    const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
    const issue = findPull(ctx, repo, request.params.number);
    return issue.pull!.reviews.map((r) => reviewJson(ctx, repo, issue, r));
  });

  app.post<{ Params: NumberParams; Body: Record<string, unknown> }>(
    '/repos/:owner/:repo/pulls/:number/reviews',
    async (request, reply) => {
      const { repo, actor } = writableRepo(request, ctx, request.params.owner, request.params.repo);
      const issue = findPull(ctx, repo, request.params.number);
      const body = request.body ?? {};
      const event =
        body.event === 'APPROVE'
          ? 'APPROVED'
          : body.event === 'REQUEST_CHANGES'
            ? 'CHANGES_REQUESTED'
            : 'COMMENTED';
      const headSha = (await resolveRef(host.repoPath(repo), `refs/heads/${issue.pull!.head}`)) ?? '';
      const commitId = typeof body.commit_id === 'string' ? body.commit_id : headSha;
      const reviewId = host.store.nextId();
      // Inline comments come with the review (GitHub's `comments[]`): each needs a path and a body.
      const inline = Array.isArray(body.comments) ? (body.comments as Record<string, unknown>[]) : [];
      if (inline.length > 100) throw new HttpError(422, 'Validation Failed: too many review comments');
      const author = host.actorLogin(actor);
      const submittedAt = new Date().toISOString();
      const comments = inline.map((c) => {
        if (typeof c?.body !== 'string' || typeof c.path !== 'string' || !c.path)
          throw new HttpError(422, 'Validation Failed: each review comment needs a path and a body');
        return {
          id: host.store.nextId(),
          author,
          body: c.body,
          path: c.path,
          line: typeof c.line === 'number' ? c.line : null,
          startLine: typeof c.start_line === 'number' ? c.start_line : null,
          reviewId,
          side: c.side === 'LEFT' ? ('LEFT' as const) : ('RIGHT' as const),
          commitId,
          createdAt: submittedAt,
        };
      });
      const review = {
        id: reviewId,
        author,
        body: typeof body.body === 'string' ? body.body : '',
        state: event,
        commitId,
        submittedAt,
      } as const;
      host.store.update(() => {
        issue.pull!.reviews.push(review);
        issue.pull!.reviewComments.push(...comments);
      });
      const pull = await pullJson(ctx, repo, issue);
      // GitHub sends one event per inline comment, then the review's.
      for (const comment of comments) {
        ctx.webhooks.send('pull_request_review_comment', {
          action: 'created',
          comment: reviewCommentJson(ctx, repo, issue, comment),
          pull_request: simplePull(pull),
          ...eventBase(ctx, repo, actor),
        });
      }
      ctx.webhooks.send('pull_request_review', {
        action: 'submitted',
        // Webhooks spell the state in lower case where REST answers upper case, like GitHub.
        review: { ...reviewJson(ctx, repo, issue, review), state: review.state.toLowerCase() },
        pull_request: simplePull(pull),
        ...eventBase(ctx, repo, actor),
      });
      return reply.status(200).send(reviewJson(ctx, repo, issue, review));
    },
  );

  app.get<{ Params: NumberParams & { review: string } }>(
    '/repos/:owner/:repo/pulls/:number/reviews/:review/comments',
    async (request) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      const issue = findPull(ctx, repo, request.params.number);
      const id = Number(request.params.review);
      if (!issue.pull!.reviews.some((r) => r.id === id)) throw new HttpError(404, 'Not Found');
      return issue
        .pull!.reviewComments.filter((c) => c.reviewId === id)
        .map((c) => reviewCommentJson(ctx, repo, issue, c));
    },
  );

  app.get<{ Params: NumberParams }>('/repos/:owner/:repo/pulls/:number/comments', async (request) => {
    const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
    const issue = findPull(ctx, repo, request.params.number);
    return issue.pull!.reviewComments.map((c) => reviewCommentJson(ctx, repo, issue, c));
  });

  app.post<{ Params: NumberParams; Body: Record<string, unknown> }>(
    '/repos/:owner/:repo/pulls/:number/comments',
    async (request, reply) => {
      const { repo, actor } = writableRepo(request, ctx, request.params.owner, request.params.repo);
      const issue = findPull(ctx, repo, request.params.number);
      const body = request.body ?? {};
      if (typeof body.body !== 'string' || typeof body.path !== 'string') {
        throw new HttpError(422, 'Validation Failed: body and path are required');
      }
      const comment = {
        id: host.store.nextId(),
        author: host.actorLogin(actor),
        body: body.body,
        path: body.path,
        line: typeof body.line === 'number' ? body.line : null,
        side: body.side === 'LEFT' ? ('LEFT' as const) : ('RIGHT' as const),
        commitId: typeof body.commit_id === 'string' ? body.commit_id : '',
        createdAt: new Date().toISOString(),
      };
      host.store.update(() => issue.pull!.reviewComments.push(comment));
      ctx.webhooks.send('pull_request_review_comment', {
        action: 'created',
        comment: reviewCommentJson(ctx, repo, issue, comment),
        pull_request: simplePull(await pullJson(ctx, repo, issue)),
        ...eventBase(ctx, repo, actor),
      });
      return reply.status(201).send(reviewCommentJson(ctx, repo, issue, comment));
    },
  );
}

/** Opens a pull request (shared by the REST API and the compare page's form). */
export async function openPull(
  ctx: Context,
  repo: HostRepo,
  author: string,
  body: Record<string, unknown>,
): Promise<HostIssue> {
  const title = typeof body.title === 'string' ? body.title.trim() : '';
  const head =
    typeof body.head === 'string' ? (body.head.includes(':') ? body.head.split(':')[1]! : body.head) : '';
  const base = typeof body.base === 'string' ? body.base : repo.defaultBranch;
  if (!title) throw new HttpError(422, 'Validation Failed: title is missing');
  const bare = ctx.host.repoPath(repo);
  if (!(await resolveRef(bare, `refs/heads/${head}`)))
    throw new HttpError(422, `Validation Failed: head branch '${head}' does not exist`);
  const baseSha = await resolveRef(bare, `refs/heads/${base}`);
  if (!baseSha) throw new HttpError(422, `Validation Failed: base branch '${base}' does not exist`);
  // GitHub refuses a pull request that would bring nothing.
  const headSha = (await resolveRef(bare, `refs/heads/${head}`))!;
  if (!(await commitsBetween(bare, baseSha, headSha)).length)
    throw new HttpError(422, `Validation Failed: No commits between ${base} and ${head}`);
  const full = `${repo.owner}/${repo.name}`;
  if (
    ctx.host.state.issues.some(
      (i) => i.repo === full && i.pull && i.state === 'open' && i.pull.head === head && i.pull.base === base,
    )
  ) {
    throw new HttpError(422, `Validation Failed: A pull request already exists for ${repo.owner}:${head}.`);
  }
  const now = new Date().toISOString();
  const issue: HostIssue = {
    number: nextNumber(ctx, repo),
    repo: full,
    title,
    body: typeof body.body === 'string' ? body.body : '',
    author,
    state: 'open',
    createdAt: now,
    updatedAt: now,
    closedAt: null,
    comments: [],
    pull: {
      head,
      base,
      draft: body.draft === true,
      merged: false,
      mergeCommitSha: null,
      mergedAt: null,
      reviews: [],
      reviewComments: [],
    },
  };
  ctx.host.store.update((s) => s.issues.push(issue));
  return issue;
}

function reviewJson(ctx: Context, repo: HostRepo, issue: HostIssue, review: HostReview) {
  return {
    id: review.id,
    node_id: `PRR_${review.id}`,
    user: ctx.shapes.account(review.author),
    body: review.body,
    state: review.state,
    commit_id: review.commitId,
    submitted_at: review.submittedAt,
    html_url: `${ctx.shapes.webUrl}/${repo.owner}/${repo.name}/pull/${issue.number}#pullrequestreview-${review.id}`,
    pull_request_url: `${ctx.shapes.apiUrl}/repos/${repo.owner}/${repo.name}/pulls/${issue.number}`,
    author_association: 'COLLABORATOR',
    _links: {
      html: {
        href: `${ctx.shapes.webUrl}/${repo.owner}/${repo.name}/pull/${issue.number}#pullrequestreview-${review.id}`,
      },
      pull_request: { href: `${ctx.shapes.apiUrl}/repos/${repo.owner}/${repo.name}/pulls/${issue.number}` },
    },
  };
}

function reviewCommentJson(ctx: Context, repo: HostRepo, issue: HostIssue, c: HostReviewComment) {
  const api = `${ctx.shapes.apiUrl}/repos/${repo.owner}/${repo.name}`;
  return {
    id: c.id,
    node_id: `PRRC_${c.id}`,
    pull_request_review_id: c.reviewId ?? null,
    user: ctx.shapes.account(c.author),
    body: c.body,
    path: c.path,
    line: c.line,
    original_line: c.line,
    start_line: c.startLine ?? null,
    original_start_line: c.startLine ?? null,
    side: c.side,
    start_side: c.startLine ? c.side : null,
    commit_id: c.commitId,
    original_commit_id: c.commitId,
    created_at: c.createdAt,
    updated_at: c.createdAt,
    html_url: `${ctx.shapes.webUrl}/${repo.owner}/${repo.name}/pull/${issue.number}#discussion_r${c.id}`,
    url: `${api}/pulls/comments/${c.id}`,
    pull_request_url: `${api}/pulls/${issue.number}`,
    author_association: 'COLLABORATOR',
    // The diff hunk and positions of the legacy position API are not modelled; line/side are.
    diff_hunk: '',
    position: null,
    // GitHub's legacy diff position; this host keeps line/side only, so the line stands in.
    original_position: c.line ?? 1,
    subject_type: 'line',
    reactions: ctx.shapes.reactions(`${api}/pulls/comments/${c.id}`, `review_comment:${c.id}`),
    _links: {
      self: { href: `${api}/pulls/comments/${c.id}` },
      html: {
        href: `${ctx.shapes.webUrl}/${repo.owner}/${repo.name}/pull/${issue.number}#discussion_r${c.id}`,
      },
      pull_request: { href: `${api}/pulls/${issue.number}` },
    },
  };
}
