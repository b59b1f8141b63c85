import type { FastifyInstance } from 'fastify';
import { actorOf, HttpError, paginate, requireApp, type Context } from './context.js';

export function appRoutes(app: FastifyInstance, ctx: Context): void {
  const { host, shapes } = ctx;
  const installationOr404 = (id: string) => {
    const installation = host.installation(Number(id));
    if (!installation) throw new HttpError(404, 'Not Found');
    return installation;
  };

  app.get('/app', async (request) => {
    await requireApp(request, ctx);
    return {
      id: host.credentials.appId,
      slug: host.credentials.slug,
      name: 'Tandem',
      client_id: host.credentials.clientId,
      owner: shapes.account('tandem-templates'),
      html_url: `${shapes.webUrl}/apps/${host.credentials.slug}`,
      permissions: { contents: 'write', pull_requests: 'write', issues: 'write', metadata: 'read' },
      events: ['push', 'pull_request', 'pull_request_review', 'issues', 'issue_comment'],
    };
  });

  app.get('/app/installations', async (request, reply) => {
    await requireApp(request, ctx);
    return paginate(request, host.state.installations, (n, v) => reply.header(n, v), ctx).map((i) =>
      shapes.installation(i),
    );
  });

  app.get<{ Params: { id: string } }>('/app/installations/:id', async (request) => {
    await requireApp(request, ctx);
    return shapes.installation(installationOr404(request.params.id));
  });

  app.post<{ Params: { id: string } }>('/app/installations/:id/access_tokens', async (request, reply) => {
    await requireApp(request, ctx);
    const installation = installationOr404(request.params.id);
    const { token, expiresAt } = host.issueInstallationToken(installation.id);
    return reply.status(201).send({
      token,
      expires_at: expiresAt.toISOString(),
      permissions: { contents: 'write', pull_requests: 'write', issues: 'write', metadata: 'read' },
      repository_selection: 'all',
    });
  });

  app.get('/installation/repositories', async (request, reply) => {
    const actor = actorOf(request, host);
    if (actor.kind !== 'installation')
      throw new HttpError(403, 'This endpoint needs an installation access token');
    const repos = host.reposOf(actor.installation.account);
    const page = paginate(request, repos, (n, v) => reply.header(n, v), ctx);
    return {
      total_count: repos.length,
      repository_selection: 'all',
      repositories: page.map((r) => shapes.repo(r)),
    };
  });

  app.get('/app/hook/deliveries', async (request) => {
    await requireApp(request, ctx);
    return [...host.state.deliveries].reverse().map((d) => ({
      id: d.id,
      guid: d.id,
      event: d.event,
      action: d.action,
      status_code: d.status ?? 0,
      status: d.error ?? 'OK',
      redelivery: d.attempts > 1,
      delivered_at: d.deliveredAt ?? d.createdAt,
    }));
  });

  app.post<{ Params: { id: string } }>('/app/hook/deliveries/:id/attempts', async (request, reply) => {
    await requireApp(request, ctx);
    if (!ctx.webhooks.redeliver(request.params.id)) throw new HttpError(404, 'Not Found');
    return reply.code(202).send({});
  });
}
