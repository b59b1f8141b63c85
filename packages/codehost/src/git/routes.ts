import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { listBranches } from './repo-reads.js';
import { actorOf, HttpError, type Context } from '../rest/context.js';
import { announcePush } from '../actions/announce-push.js';
import { runHttpBackend } from './http-backend.js';
import type { Actor } from '../host.js';
import { installPushHooks, pushHookEnv } from './workflow-guard.js';

type GitParams = { owner: string; repo: string; '*': string };

/** Git smart HTTP at /{owner}/{repo}.git/…, authenticated with installation or user tokens. */
export function gitRoutes(app: FastifyInstance, ctx: Context): void {
  const hooksDir = installPushHooks(ctx.host.dataDir);
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
          env: pushHookEnv(hooksDir, actor.kind === 'installation'),
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
