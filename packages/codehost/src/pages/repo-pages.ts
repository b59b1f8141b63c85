import type { FastifyInstance, FastifyRequest } from 'fastify';
import { listBranches, listTree, readPath } from '../git/repo-reads.js';
import { sessionUser } from '../oauth/routes.js';
import { HttpError, type Context } from '../rest/context.js';
import { compare } from '../rest/repos.js';
import { openPull } from '../rest/pulls.js';
import { pullJson } from '../rest/pull-json.js';
import { eventBase } from '../rest/issue-model.js';
import type { HostRepo } from '../store/types.js';
import { esc, hidden, page, userPicker } from './html.js';

type RepoParams = { owner: string; repo: string };

/** Minimal HTML for repositories, pull requests, issues and compare, so product links lead somewhere. */
export function repoPageRoutes(app: FastifyInstance, ctx: Context): void {
  const { host } = ctx;
  const visibleRepo = (request: FastifyRequest, owner: string, name: string): HostRepo => {
    const repo = host.repo(owner, name);
    const user = sessionUser(request, ctx);
    const actor = user ? ({ kind: 'user', user } as const) : ({ kind: 'anonymous' } as const);
    if (!repo || !host.canRead(actor, repo)) throw new HttpError(404, 'Not Found');
    return repo;
  };

  app.get('/', async (_request, reply) => {
    const items = host.state.repos.map(
      (r) =>
        `<li><a href="/${esc(r.owner)}/${esc(r.name)}">${esc(r.owner)}/${esc(r.name)}</a> <span class="muted">${r.private ? 'private' : 'public'} · ${esc(r.description)}</span></li>`,
    );
    return reply.type('text/html').send(page('Repositories', `<ul>${items.join('')}</ul>`));
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
    const repo = visibleRepo(request, request.params.owner, request.params.repo);
    const bare = host.repoPath(repo);
    const full = `${repo.owner}/${repo.name}`;
    const branches = await listBranches(bare);
    const files = (await listTree(bare, repo.defaultBranch, '')) ?? [];
    const readme = await readPath(bare, repo.defaultBranch, 'README.md');
    const issues = host.state.issues.filter((i) => i.repo === full && i.state === 'open');
    const body = `
      <p class="muted">${esc(repo.description)}</p>
      <p>Clone: <code>${esc(ctx.shapes.webUrl)}/${esc(full)}.git</code></p>
      <h2>Branches</h2><ul>${branches.map((b) => `<li>${esc(b.name)} <span class="muted">${esc(b.sha.slice(0, 7))}</span></li>`).join('')}</ul>
      <h2>Files on ${esc(repo.defaultBranch)}</h2><ul>${files.map((f) => `<li>${esc(f.name)}${f.type === 'tree' ? '/' : ''}</li>`).join('')}</ul>
      <h2>Open pull requests and issues</h2><ul>${issues
        .map(
          (i) =>
            `<li><a href="/${esc(full)}/${i.pull ? 'pull' : 'issues'}/${i.number}">#${i.number} ${esc(i.title)}</a></li>`,
        )
        .join('')}</ul>
      ${readme?.kind === 'file' ? `<h2>README</h2><pre>${esc(readme.content.toString('utf8'))}</pre>` : ''}`;
    return reply.type('text/html').send(page(full, body));
  });

  app.get<{ Params: RepoParams & { number: string } }>(
    '/:owner/:repo/pull/:number',
    async (request, reply) => {
      const repo = visibleRepo(request, request.params.owner, request.params.repo);
      const full = `${repo.owner}/${repo.name}`;
      const issue = host.state.issues.find(
        (i) => i.repo === full && i.number === Number(request.params.number) && i.pull,
      );
      if (!issue) throw new HttpError(404, 'Not Found');
      const pull = await pullJson(ctx, repo, issue);
      const comparison =
        pull.base.sha && pull.head.sha ? await compare(host, repo, ctx, pull.base.sha, pull.head.sha) : null;
      const body = `
      <p><strong>${esc(pull.merged ? 'merged' : issue.state)}</strong> · ${esc(issue.author)} wants to merge ${pull.commits} commit(s) into <code>${esc(issue.pull!.base)}</code> from <code>${esc(issue.pull!.head)}</code></p>
      <pre>${esc(issue.body)}</pre>
      <h2>Commits</h2><ul>${(comparison?.commits ?? []).map((c) => `<li><code>${esc(c.sha.slice(0, 7))}</code> ${esc(c.commit.message.split('\n')[0])}</li>`).join('')}</ul>
      <h2>Files changed</h2>${(comparison?.files ?? [])
        .map(
          (f) =>
            `<h3>${esc(f.filename)} <span class="add">+${f.additions}</span> <span class="del">−${f.deletions}</span></h3><pre>${esc(f.patch)}</pre>`,
        )
        .join('')}`;
      return reply.type('text/html').send(page(`${issue.title} #${issue.number}`, body));
    },
  );

  app.get<{ Params: RepoParams & { number: string } }>(
    '/:owner/:repo/issues/:number',
    async (request, reply) => {
      const repo = visibleRepo(request, request.params.owner, request.params.repo);
      const full = `${repo.owner}/${repo.name}`;
      const issue = host.state.issues.find(
        (i) => i.repo === full && i.number === Number(request.params.number),
      );
      if (!issue) throw new HttpError(404, 'Not Found');
      const comments = issue.comments
        .map((c) => `<li><strong>${esc(c.author)}</strong>: <pre>${esc(c.body)}</pre></li>`)
        .join('');
      return reply
        .type('text/html')
        .send(
          page(
            `${issue.title} #${issue.number}`,
            `<p><strong>${esc(issue.state)}</strong> · opened by ${esc(issue.author)}</p><pre>${esc(issue.body)}</pre><h2>Comments</h2><ul>${comments}</ul>`,
          ),
        );
    },
  );

  app.get<{ Params: RepoParams & { '*': string }; Querystring: { title?: string; body?: string } }>(
    '/:owner/:repo/compare/*',
    async (request, reply) => {
      const repo = visibleRepo(request, request.params.owner, request.params.repo);
      const [base = repo.defaultBranch, head = ''] = request.params['*'].split('...');
      const user = sessionUser(request, ctx);
      if (!user) {
        return reply
          .type('text/html')
          .send(
            page(
              'Open a pull request',
              '<p>Sign in to open a pull request.</p>' +
                userPicker(host.state.users, '/session', { return_to: request.url }),
            ),
          );
      }
      const comparison = await compare(host, repo, ctx, base, head).catch(() => null);
      if (!comparison)
        return reply
          .status(404)
          .type('text/html')
          .send(page('Nothing to compare', `<p>${esc(base)} or ${esc(head)} does not exist.</p>`));
      const body = `
        <p>Merging ${comparison.ahead_by} commit(s) from <code>${esc(head)}</code> into <code>${esc(base)}</code>.</p>
        <form method="post" action="/${esc(repo.owner)}/${esc(repo.name)}/compare">${hidden({ base, head })}
          <label>Title<input name="title" value="${esc(request.query.title ?? comparison.commits.at(-1)?.commit.message.split('\n')[0] ?? '')}"></label>
          <label>Description<textarea name="body" rows="8">${esc(request.query.body ?? '')}</textarea></label>
          <button type="submit">Create pull request</button>
        </form>
        <h2>Files changed</h2>${comparison.files.map((f) => `<h3>${esc(f.filename)}</h3><pre>${esc(f.patch)}</pre>`).join('')}`;
      return reply.type('text/html').send(page('Open a pull request', body));
    },
  );

  app.post<{ Params: RepoParams; Body: Record<string, string | undefined> }>(
    '/:owner/:repo/compare',
    async (request, reply) => {
      const repo = visibleRepo(request, request.params.owner, request.params.repo);
      const user = sessionUser(request, ctx);
      if (!user || !host.canWrite({ kind: 'user', user }, repo)) {
        return reply
          .status(403)
          .type('text/html')
          .send(page('Cannot open a pull request', '<p>You need write access.</p>'));
      }
      const issue = await openPull(ctx, repo, user.login, request.body ?? {});
      ctx.webhooks.send('pull_request', {
        action: 'opened',
        number: issue.number,
        pull_request: await pullJson(ctx, repo, issue),
        ...eventBase(ctx, repo, { kind: 'user', user }),
      });
      return reply.redirect(`/${repo.owner}/${repo.name}/pull/${issue.number}`);
    },
  );
}
