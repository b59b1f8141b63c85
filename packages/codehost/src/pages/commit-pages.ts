import type { FastifyInstance } from 'fastify';
import {
  diffFiles,
  EMPTY_TREE,
  getCommit,
  listCommits,
  resolveCommitSha,
  resolveRefAndPath,
} from '../git/repo-reads.js';
import { HttpError, type Context } from '../rest/context.js';
import { renderDiff } from './diff-view.js';
import { esc } from './html.js';
import { sendPage } from './layout.js';
import { encodePath, repoBase, repoNav, visibleRepo, type RepoParams } from './repo-access.js';

const PER_PAGE = 30;
/** Deep pages of history cost a long git walk; nobody pages this far by hand. */
const MAX_PAGE = 1000;

/** History of a ref (/commits/{ref}, paginated) and one commit with its diff (/commit/{sha}). */
export function commitPageRoutes(app: FastifyInstance, ctx: Context): void {
  const { host } = ctx;

  app.get<{ Params: RepoParams & { '*': string }; Querystring: { page?: string } }>(
    '/:owner/:repo/commits/*',
    async (request, reply) => {
      const repo = visibleRepo(request, ctx, request.params);
      const bare = host.repoPath(repo);
      const found = await resolveRefAndPath(bare, request.params['*']);
      if (!found || found.path) throw new HttpError(404, 'Not Found');
      const page = Number(request.query.page ?? '1');
      if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE) throw new HttpError(404, 'Not Found');
      // One more than a page tells whether an older page exists.
      const commits = await listCommits(bare, found.commit, PER_PAGE + 1, (page - 1) * PER_PAGE);
      const shown = commits.slice(0, PER_PAGE);
      const items = shown
        .map((c) => {
          const subject = c.message.split('\n')[0] ?? '';
          return `<li><a href="${esc(`${repoBase(repo)}/commit/${c.sha}`)}">${esc(subject)}</a><br><span class="muted">${esc(c.authorName)} committed ${esc(c.date.slice(0, 10))}</span> · <code>${esc(c.sha.slice(0, 7))}</code></li>`;
        })
        .join('');
      const here = `${repoBase(repo)}/commits/${encodePath(found.ref)}`;
      const links = [
        page > 1 ? `<li><a href="${esc(`${here}?page=${page - 1}`)}" rel="prev">Newer</a></li>` : '',
        commits.length > PER_PAGE
          ? `<li><a href="${esc(`${here}?page=${page + 1}`)}" rel="next">Older</a></li>`
          : '',
      ].join('');
      const body = `${repoNav(ctx, repo, 'commits')}
<p>Branch or tag: <strong>${esc(found.ref)}</strong> · <a href="${esc(`${repoBase(repo)}/tree/${encodePath(found.ref)}`)}">Browse files</a></p>
${shown.length ? `<ol class="files" aria-label="Commits">${items}</ol>` : '<p class="muted">No commits on this page.</p>'}
${links ? `<nav class="tabs" aria-label="Pagination"><ul>${links}</ul></nav>` : ''}`;
      return sendPage(request, reply, ctx, `Commits on ${found.ref}`, body);
    },
  );

  app.get<{ Params: RepoParams & { sha: string } }>('/:owner/:repo/commit/:sha', async (request, reply) => {
    const repo = visibleRepo(request, ctx, request.params);
    const bare = host.repoPath(repo);
    const sha = await resolveCommitSha(bare, request.params.sha);
    const commit = sha ? await getCommit(bare, sha) : null;
    if (!commit) throw new HttpError(404, 'Not Found');
    // Like GitHub, a merge commit shows its changes against the first parent.
    const files = await diffFiles(bare, commit.parents[0] ?? EMPTY_TREE, commit.sha);
    const [subject = '', ...rest] = commit.message.split('\n');
    const description = rest.join('\n').trim();
    const parents = commit.parents.length
      ? commit.parents
          .map(
            (p) => `<a href="${esc(`${repoBase(repo)}/commit/${p}`)}"><code>${esc(p.slice(0, 7))}</code></a>`,
          )
          .join(' + ')
      : 'none (first commit)';
    const additions = files.reduce((n, f) => n + f.additions, 0);
    const deletions = files.reduce((n, f) => n + f.deletions, 0);
    const body = `${repoNav(ctx, repo, 'commits')}
${description ? `<pre>${esc(description)}</pre>` : ''}
<p><strong>${esc(commit.authorName)}</strong> committed on <time datetime="${esc(commit.date)}">${esc(commit.date.replace('T', ' ').slice(0, 16))}</time></p>
<p>Commit <code>${esc(commit.sha)}</code> · Parents: ${parents} · <a href="${esc(`${repoBase(repo)}/tree/${commit.sha}`)}">Browse files</a></p>
<h2>${files.length} changed file${files.length === 1 ? '' : 's'} <span class="add">+${additions}</span> <span class="del">−${deletions}</span></h2>
${renderDiff(files)}`;
    return sendPage(request, reply, ctx, subject || commit.sha.slice(0, 7), body);
  });
}
