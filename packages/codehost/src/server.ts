import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { gitRoutes } from './git/routes.js';
import { graphqlRoutes } from './graphql/schema.js';
import { oauthRoutes } from './oauth/routes.js';
import { commitPageRoutes } from './pages/commit-pages.js';
import { comparePageRoutes } from './pages/compare-pages.js';
import { installRoutes } from './pages/install.js';
import { issuePageRoutes } from './pages/issue-pages.js';
import { sendNotFound, sendProblem } from './pages/layout.js';
import { pullPageRoutes } from './pages/pull-pages.js';
import { repoHomeRoutes } from './pages/repo-home.js';
import { runPageRoutes } from './pages/run-pages.js';
import { sessionPageRoutes } from './pages/session-pages.js';
import { treePageRoutes } from './pages/tree-pages.js';
import { actionsLogDownloadRoute, actionsRoutes } from './rest/actions.js';
import { appRoutes } from './rest/apps.js';
import { HttpError, type Context } from './rest/context.js';
import { issueRoutes } from './rest/issues.js';
import { pullRoutes } from './rest/pulls.js';
import { reactionRoutes } from './rest/reactions.js';
import { repoRoutes } from './rest/repos.js';
import { githubError } from './rest/shapes.js';
import { userRoutes } from './rest/users.js';

const isApi = (url: string) => url.startsWith('/api/');

export async function createCodeHostServer(ctx: Context, logger: Logger): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: 50 * 1024 * 1024,
  });
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);

  app.addHook('onSend', async (request, reply) => {
    if (!isApi(request.url)) {
      // The pages show hostile text (bodies, comments, files): no script may run on them at all.
      if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
        reply.header(
          'content-security-policy',
          "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'",
        );
        reply.header('x-content-type-options', 'nosniff');
        reply.header('referrer-policy', 'same-origin');
      }
      return;
    }
    reply.header('x-github-request-id', request.id);
  });

  app.setErrorHandler((error, request, reply) => {
    const status =
      error instanceof HttpError ? error.status : ((error as { statusCode?: number }).statusCode ?? 500);
    if (status >= 500) request.log.error({ err: error }, 'code host error');
    const message = status >= 500 ? 'Server Error' : (error as Error).message;
    if (isApi(request.url)) return reply.status(status).send(githubError(message, status));
    if (status === 404) return sendNotFound(request, reply, ctx);
    return sendProblem(request, reply, ctx, status, status >= 500 ? 'Error' : 'That did not work', message);
  });
  app.setNotFoundHandler((request, reply) => {
    if (isApi(request.url)) return reply.status(404).send(githubError('Not Found', 404));
    return sendNotFound(request, reply, ctx);
  });

  await app.register(
    async (api) => {
      // Counted per credential with moving x-ratelimit-* headers; tests can trip a limit.
      api.addHook('onRequest', async (request, reply) => {
        if (ctx.rateLimits.check(request, reply)) return reply;
      });
      userRoutes(api, ctx);
      appRoutes(api, ctx);
      repoRoutes(api, ctx);
      issueRoutes(api, ctx);
      pullRoutes(api, ctx);
      reactionRoutes(api, ctx);
      actionsRoutes(api, ctx);
    },
    { prefix: '/api/v3' },
  );
  graphqlRoutes(app, ctx);
  oauthRoutes(app, ctx);
  installRoutes(app, ctx);
  gitRoutes(app, ctx);
  actionsLogDownloadRoute(app, ctx);
  sessionPageRoutes(app, ctx);
  repoHomeRoutes(app, ctx);
  treePageRoutes(app, ctx);
  commitPageRoutes(app, ctx);
  issuePageRoutes(app, ctx);
  pullPageRoutes(app, ctx);
  runPageRoutes(app, ctx);
  comparePageRoutes(app, ctx);
  return app;
}
