import type { FastifyInstance } from 'fastify';
import { HttpError, paginate, requireUserActor, type Context } from './context.js';

export function userRoutes(app: FastifyInstance, ctx: Context): void {
  const { host, shapes } = ctx;

  app.get('/user', async (request) => shapes.privateUser(requireUserActor(request, host).user));

  app.get<{ Params: { login: string } }>('/users/:login', async (request) => {
    const user = host.user(request.params.login);
    if (user) return shapes.user(user);
    if (host.org(request.params.login)) return shapes.account(request.params.login);
    throw new HttpError(404, 'Not Found');
  });

  app.get('/user/installations', async (request, reply) => {
    const { user } = requireUserActor(request, host);
    const all = host.userInstallations(user.login);
    const installations = paginate(request, all, (n, v) => reply.header(n, v), ctx).map((i) =>
      shapes.installation(i),
    );
    return { total_count: all.length, installations };
  });

  app.get<{ Params: { id: string } }>('/user/installations/:id/repositories', async (request, reply) => {
    const { user } = requireUserActor(request, host);
    const installation = host.userInstallations(user.login).find((i) => i.id === Number(request.params.id));
    if (!installation) throw new HttpError(404, 'Not Found');
    const repos = host.reposOf(installation.account).filter((r) => host.permission(user.login, r) !== 'none');
    const page = paginate(request, repos, (n, v) => reply.header(n, v), ctx);
    return {
      total_count: repos.length,
      repository_selection: 'all',
      repositories: page.map((r) => shapes.repo(r)),
    };
  });

  app.get<{ Params: { org: string } }>('/user/memberships/orgs/:org', async (request) => {
    const { user } = requireUserActor(request, host);
    const role = host.orgRole(request.params.org, user.login);
    if (!role) throw new HttpError(404, 'Not Found');
    return {
      url: `${shapes.apiUrl}/orgs/${request.params.org}/memberships/${user.login}`,
      state: 'active',
      role,
      organization_url: `${shapes.apiUrl}/orgs/${request.params.org}`,
      organization: shapes.organization(request.params.org),
      user: shapes.account(user.login),
    };
  });

  app.get<{ Params: { org: string; username: string } }>(
    '/orgs/:org/memberships/:username',
    async (request) => {
      requireUserActor(request, host);
      const role = host.orgRole(request.params.org, request.params.username);
      const member = host.user(request.params.username);
      if (!role || !member) throw new HttpError(404, 'Not Found');
      return {
        state: 'active',
        role,
        organization: shapes.account(request.params.org),
        user: shapes.user(member),
      };
    },
  );
}
