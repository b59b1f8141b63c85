import type { FastifyInstance } from 'fastify';
import { resolveRef } from '../git/repo-reads.js';
import { sessionUser } from '../oauth/session.js';
import type { Context } from '../rest/context.js';
import type { HostRepo, HostUser } from '../store/types.js';
import { esc } from './html.js';
import { sendPage, signInHref } from './layout.js';
import { actorFor, repoBase, repoNav, visibleRepo, type RepoParams } from './repo-access.js';
import { directoryView } from './tree-pages.js';

/** The repository list, avatars, and each repository's home (clone instructions, files, README). */
export function repoHomeRoutes(app: FastifyInstance, ctx: Context): void {
  const { host } = ctx;

  app.get('/', async (request, reply) => {
    const user = sessionUser(request, ctx);
    // Private repositories stay listed for everyone (the newcomer sees what exists and signs in).
    const items = host.state.repos.map((r) => {
      const access = host.canRead(actorFor(user), r) ? '' : ' · sign in with access to open it';
      return `<li><a href="${esc(repoBase(r))}">${esc(r.owner)}/${esc(r.name)}</a> <span class="muted">${r.private ? 'private' : 'public'}${access} · ${esc(r.description)}</span></li>`;
    });
    return sendPage(
      request,
      reply,
      ctx,
      'Repositories',
      `<ul class="files" aria-label="Repositories">${items.join('')}</ul>`,
    );
  });

  app.get<{ Params: { login: string } }>('/avatars/:login', async (request, reply) => {
    const letter = esc(
      request.params.login
        .replace(/\.svg$/, '')
        .slice(0, 1)
        .toUpperCase(),
    );
    return reply
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .send(
        `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" fill="#8250df"/><text x="20" y="27" font-size="20" text-anchor="middle" fill="#fff" font-family="sans-serif">${letter}</text></svg>`,
      );
  });

  app.get<{ Params: RepoParams }>('/:owner/:repo', async (request, reply) => {
    const repo = visibleRepo(request, ctx, request.params);
    const title = `${repo.owner}/${repo.name}`;
    const intro = `${repo.description ? `<p>${esc(repo.description)}</p>` : ''}${cloneBox(ctx, repo, sessionUser(request, ctx))}`;
    const commit = await resolveRef(host.repoPath(repo), `refs/heads/${repo.defaultBranch}`);
    if (!commit) {
      return sendPage(
        request,
        reply,
        ctx,
        title,
        `${repoNav(ctx, repo, 'code')}${intro}<p>This repository is empty.</p>`,
      );
    }
    const found = { ref: repo.defaultBranch, commit, path: '' };
    return sendPage(request, reply, ctx, title, await directoryView(ctx, repo, found, intro));
  });
}

/** The clone URL and, for a private repository, how to authenticate with a personal token. */
function cloneBox(ctx: Context, repo: HostRepo, user: HostUser | undefined): string {
  const url = `${ctx.shapes.webUrl}${repoBase(repo)}.git`;
  let how: string;
  if (!repo.private) {
    how =
      '<p class="muted">Public: anyone can clone it. Pushing needs write access and a personal access token.</p>';
  } else if (user) {
    const withToken = url.replace('://', `://${encodeURIComponent(user.login)}:TOKEN@`);
    how = `<p>Private: clone with a <a href="/settings/tokens">personal access token</a> as the password:</p><pre>git clone ${esc(withToken)}</pre>`;
  } else {
    how = `<p class="muted">Private: <a href="${esc(signInHref(repoBase(repo)))}">sign in</a> and create a personal access token to clone it.</p>`;
  }
  return `<section class="box" aria-labelledby="clone-heading"><h2 id="clone-heading">Clone</h2><p><label for="clone-url">HTTP clone URL</label><input id="clone-url" readonly value="${esc(url)}"></p>${how}</section>`;
}
