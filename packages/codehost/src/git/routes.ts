import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { listBranches, commitsBetween, getCommit } from './repo-reads.js';
import { actorOf, HttpError, type Context } from '../rest/context.js';
import { eventBase } from '../rest/issue-model.js';
import { pullJson } from '../rest/pull-json.js';
import { runHttpBackend } from './http-backend.js';
import type { Actor } from '../host.js';
import type { HostRepo } from '../store/types.js';

type GitParams = { owner: string; repo: string; '*': string };

const ZERO = '0000000000000000000000000000000000000000';

/** Git smart HTTP at /{owner}/{repo}.git/…, authenticated with installation or user tokens. */
export function gitRoutes(app: FastifyInstance, ctx: Context): void {
  app.register(async (scope) => {
    // Pack data must reach git untouched: hand the raw request stream through.
    scope.addContentTypeParser(
      ['application/x-git-upload-pack-request', 'application/x-git-receive-pack-request'],
      (_request, payload, done) => done(null, payload),
    );

    const handle = async (
      request: FastifyRequest<{ Params: { owner: string; repo: string; '*': string } }>,
      reply: FastifyReply,
    ) => {
      const { owner } = request.params;
      const name = request.params.repo.replace(/\.git$/, '');
      const service = request.params['*'];
      const isPush =
        service === 'git-receive-pack' ||
        (request.query as { service?: string }).service === 'git-receive-pack';
      const repo = ctx.host.repo(owner, name);
      const challenge = () =>
        reply
          .status(401)
          .header('www-authenticate', 'Basic realm="Tandem code host"')
          .send('Authentication required\n');

      let actor: Actor;
      try {
        actor = actorOf(request, ctx.host);
      } catch {
        return challenge();
      }
      if (!repo) return reply.status(404).send('Repository not found\n');
      if (actor.kind === 'anonymous' && (repo.private || isPush)) return challenge();
      if (!ctx.host.canRead(actor, repo)) return reply.status(404).send('Repository not found\n');
      if (isPush && !ctx.host.canWrite(actor, repo)) return reply.status(403).send('Permission denied\n');

      const bare = ctx.host.repoPath(repo);
      const before = isPush && service === 'git-receive-pack' ? await listBranches(bare) : [];
      reply.hijack();
      await runHttpBackend(
        {
          projectRoot: join(ctx.host.dataDir, 'repos'),
          pathInfo: `/${repo.owner.toLowerCase()}/${repo.name.toLowerCase()}.git/${service}`,
          method: request.method,
          query: new URL(request.url, 'http://x').search.replace(/^\?/, ''),
          contentType: request.headers['content-type'],
          contentEncoding: request.headers['content-encoding'],
          remoteUser: ctx.host.actorLogin(actor),
          body: request.method === 'POST' ? (request.body as Readable) : undefined,
        },
        reply.raw,
        // Queue the push events before the client hears the push finished, so they follow in order.
        async () => {
          if (service !== 'git-receive-pack') return;
          await announcePush(ctx, repo, actor, before).catch((error: unknown) =>
            request.log.error({ err: error }, 'push events failed'),
          );
        },
      );
    };

    scope.get<{ Params: GitParams }>('/:owner/:repo/*', async (request, reply) => {
      if (!request.params.repo.endsWith('.git')) throw new HttpError(404, 'Not Found');
      return handle(request, reply);
    });
    scope.post<{ Params: GitParams }>('/:owner/:repo/*', async (request, reply) => {
      if (!request.params.repo.endsWith('.git')) throw new HttpError(404, 'Not Found');
      return handle(request, reply);
    });
  });
}

/** After a push: a `push` event per moved branch, and `synchronize` for open PRs on it. */
async function announcePush(
  ctx: Context,
  repo: HostRepo,
  actor: Actor,
  before: { name: string; sha: string }[],
) {
  const bare = ctx.host.repoPath(repo);
  const after = await listBranches(bare);
  const old = new Map(before.map((b) => [b.name, b.sha]));
  const now = new Map(after.map((b) => [b.name, b.sha]));
  const names = new Set([...old.keys(), ...now.keys()]);
  for (const branch of names) {
    const from = old.get(branch) ?? ZERO;
    const to = now.get(branch) ?? ZERO;
    if (from === to) continue;
    const commits =
      to === ZERO
        ? []
        : from === ZERO
          ? [(await getCommit(bare, to))!]
          : await commitsBetween(bare, from, to);
    ctx.webhooks.send('push', {
      ref: `refs/heads/${branch}`,
      before: from,
      after: to,
      created: from === ZERO,
      deleted: to === ZERO,
      forced: false,
      commits: commits.map((c) => ({
        id: c.sha,
        message: c.message,
        timestamp: c.date,
        author: { name: c.authorName, email: c.authorEmail },
      })),
      head_commit: commits.length ? { id: commits.at(-1)!.sha, message: commits.at(-1)!.message } : null,
      pusher: { name: ctx.host.actorLogin(actor) },
      ...eventBase(ctx, repo, actor),
    });
    const full = `${repo.owner}/${repo.name}`;
    for (const issue of ctx.host.state.issues.filter(
      (i) => i.repo === full && i.pull?.head === branch && i.state === 'open',
    )) {
      ctx.webhooks.send('pull_request', {
        action: 'synchronize',
        number: issue.number,
        before: from,
        after: to,
        pull_request: await pullJson(ctx, repo, issue),
        ...eventBase(ctx, repo, actor),
      });
    }
  }
}
