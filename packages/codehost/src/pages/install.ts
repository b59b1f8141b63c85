import type { FastifyInstance } from 'fastify';
import { sameOrigin, sessionUser } from '../oauth/session.js';
import type { Context } from '../rest/context.js';
import { esc, hidden, userPicker } from './html.js';
import { refuseCrossSite, sendPage } from './layout.js';

/** Installing the App: pick an account you administer; the product hears of it by webhook. */
export function installRoutes(app: FastifyInstance, ctx: Context): void {
  const { host, shapes } = ctx;

  app.get<{ Params: { slug: string } }>('/apps/:slug/installations/new', async (request, reply) => {
    if (request.params.slug !== host.credentials.slug)
      return sendPage(request, reply, ctx, 'Not found', '', 404);
    const user = sessionUser(request, ctx);
    if (!user) {
      const body =
        '<p>Sign in to choose where to install Tandem.</p>' +
        userPicker(host.state.users, '/session', { return_to: request.url });
      return sendPage(request, reply, ctx, 'Install Tandem', body);
    }
    const accounts = [
      user.login,
      ...host
        .orgsOf(user.login)
        .filter((o) => o.members[user.login] === 'admin')
        .map((o) => o.login),
    ];
    const rows = accounts
      .map((account) => {
        const installed = host.installationFor(account);
        const action = installed
          ? `<span class="muted">Installed</span> · <a href="/settings/installations/${installed.id}">Configure</a>`
          : `<form method="post" action="/apps/${esc(host.credentials.slug)}/installations" style="display:inline">${hidden({ account })}<button type="submit">Install on ${esc(account)}</button></form>`;
        return `<li><strong>${esc(account)}</strong> — ${action}</li>`;
      })
      .join('');
    const body = `<p>Signed in as <strong>${esc(user.login)}</strong>. Tandem will be able to view repositories, create pull requests and review pull requests.</p><ul>${rows}</ul>`;
    return sendPage(request, reply, ctx, 'Install Tandem', body);
  });

  app.post<{ Params: { slug: string }; Body: { account?: string } }>(
    '/apps/:slug/installations',
    async (request, reply) => {
      if (!sameOrigin(request, ctx)) return refuseCrossSite(request, reply, ctx);
      const user = sessionUser(request, ctx);
      const account = request.body?.account ?? '';
      const allowed =
        user &&
        (account.toLowerCase() === user.login.toLowerCase() || host.orgRole(account, user.login) === 'admin');
      if (request.params.slug !== host.credentials.slug || !user || !allowed) {
        return sendPage(
          request,
          reply,
          ctx,
          'Cannot install',
          '<p>You cannot install Tandem on that account.</p>',
          403,
        );
      }
      let installation = host.installationFor(account);
      if (!installation) {
        const id = host.store.nextId();
        installation = host.store.update((s) => {
          const created = {
            id,
            account: host.user(account)?.login ?? host.org(account)!.login,
            createdAt: new Date().toISOString(),
          };
          s.installations.push(created);
          return created;
        });
        ctx.webhooks.send('installation', {
          action: 'created',
          installation: shapes.installation(installation),
          repositories: host.reposOf(installation.account).map((r) => ({
            id: r.id,
            node_id: `R_${r.id}`,
            name: r.name,
            full_name: `${r.owner}/${r.name}`,
            private: r.private,
          })),
          sender: shapes.account(user.login),
        });
      }
      if (ctx.setupUrl) {
        const target = new URL(ctx.setupUrl);
        target.searchParams.set('installation_id', String(installation.id));
        target.searchParams.set('setup_action', 'install');
        return reply.redirect(target.toString());
      }
      return sendPage(
        request,
        reply,
        ctx,
        'Installed',
        `<p>Tandem is installed on <strong>${esc(installation.account)}</strong>.</p>`,
      );
    },
  );

  // GitHub's address for an organisation's installation; the same page here.
  app.get<{ Params: { org: string; id: string } }>(
    '/organizations/:org/settings/installations/:id',
    async (request, reply) =>
      reply.redirect(`/settings/installations/${encodeURIComponent(request.params.id)}`),
  );

  app.get<{ Params: { id: string } }>('/settings/installations/:id', async (request, reply) => {
    const installation = host.installation(Number(request.params.id));
    if (!installation) return sendPage(request, reply, ctx, 'Not found', '', 404);
    const repos = host
      .reposOf(installation.account)
      .map((r) => `<li><a href="/${esc(r.owner)}/${esc(r.name)}">${esc(r.owner)}/${esc(r.name)}</a></li>`);
    return sendPage(
      request,
      reply,
      ctx,
      `Tandem on ${installation.account}`,
      `<p>Repository access: all repositories.</p><ul>${repos.join('')}</ul>`,
    );
  });
}
