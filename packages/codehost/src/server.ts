import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { gitRoutes } from './git/routes.js';
import { graphqlRoutes } from './graphql/schema.js';
import { oauthRoutes } from './oauth/routes.js';
import { page, esc } from './pages/html.js';
import { installRoutes } from './pages/install.js';
import { repoPageRoutes } from './pages/repo-pages.js';
import { appRoutes } from './rest/apps.js';
import { HttpError, type Context } from './rest/context.js';
import { issueRoutes } from './rest/issues.js';
import { pullRoutes } from './rest/pulls.js';
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
    if (!isApi(request.url)) return;
    // Octokit's throttling reads these; generous limits keep it quiet.
    reply.header('x-ratelimit-limit', '5000');
    reply.header('x-ratelimit-remaining', '4999');
    reply.header('x-ratelimit-reset', String(Math.floor(Date.now() / 1000) + 3600));
    reply.header('x-github-request-id', request.id);
  });

  app.setErrorHandler((error, request, reply) => {
    const status =
      error instanceof HttpError ? error.status : ((error as { statusCode?: number }).statusCode ?? 500);
    if (status >= 500) request.log.error({ err: error }, 'code host error');
    const message = status >= 500 ? 'Server Error' : (error as Error).message;
    if (isApi(request.url)) return reply.status(status).send(githubError(message, status));
    return reply
      .status(status)
      .type('text/html')
      .send(page(status === 404 ? 'Not found' : 'Error', `<p>${esc(message)}</p>`));
  });
  app.setNotFoundHandler((request, reply) => {
    if (isApi(request.url)) return reply.status(404).send(githubError('Not Found', 404));
    return reply.status(404).type('text/html').send(page('Not found', '<p>There is nothing here.</p>'));
  });

  await app.register(
    async (api) => {
      userRoutes(api, ctx);
      appRoutes(api, ctx);
      repoRoutes(api, ctx);
      issueRoutes(api, ctx);
      pullRoutes(api, ctx);
    },
    { prefix: '/api/v3' },
  );
  graphqlRoutes(app, ctx);
  oauthRoutes(app, ctx);
  installRoutes(app, ctx);
  gitRoutes(app, ctx);
  repoPageRoutes(app, ctx);
  return app;
}
