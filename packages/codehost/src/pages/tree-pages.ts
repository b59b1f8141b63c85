import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  listBranches,
  listTree,
  readPathCapped,
  resolveRefAndPath,
  type RefAndPath,
} from '../git/repo-reads.js';
import { HttpError, type Context } from '../rest/context.js';
import type { HostRepo } from '../store/types.js';
import { esc } from './html.js';
import { sendPage } from './layout.js';
import { renderMarkdown } from './markdown.js';
import { encodePath, repoBase, repoNav, visibleRepo, type RepoParams } from './repo-access.js';

/** Files shown with line numbers up to this size; beyond it the page links to Raw. */
const MAX_VIEW_BYTES = 512 * 1024;
/** Raw serves files up to this size. */
const MAX_RAW_BYTES = 25 * 1024 * 1024;

type PathParams = RepoParams & { '*': string };

const isBinary = (content: Buffer) => content.subarray(0, 8000).includes(0);

const formatSize = (bytes: number) =>
  bytes < 1024
    ? `${bytes} Bytes`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The file browser: /tree/{ref}/{path}, /blob/{ref}/{path} and /raw/{ref}/{path}, as on GitHub. */
export function treePageRoutes(app: FastifyInstance, ctx: Context): void {
  const { host } = ctx;

  const locate = async (request: FastifyRequest<{ Params: PathParams }>) => {
    const repo = visibleRepo(request, ctx, request.params);
    const found = await resolveRefAndPath(host.repoPath(repo), request.params['*']);
    if (!found) throw new HttpError(404, 'Not Found');
    return { repo, found };
  };

  app.get<{ Params: PathParams }>('/:owner/:repo/tree/*', async (request, reply) => {
    const { repo, found } = await locate(request);
    const object = await readPathCapped(host.repoPath(repo), found.commit, found.path, 0);
    if (!object) throw new HttpError(404, 'Not Found');
    // A file's tree URL shows the file, as GitHub redirects it.
    if (object.kind !== 'dir')
      return reply.redirect(`${repoBase(repo)}/blob/${encodePath(found.ref)}/${encodePath(found.path)}`);
    const title = found.path ? `${found.path} at ${found.ref}` : `${repo.owner}/${repo.name} at ${found.ref}`;
    return sendPage(request, reply, ctx, title, await directoryView(ctx, repo, found));
  });

  app.get<{ Params: PathParams }>('/:owner/:repo/blob/*', async (request, reply) => {
    const { repo, found } = await locate(request);
    const bare = host.repoPath(repo);
    const object = await readPathCapped(bare, found.commit, found.path, MAX_VIEW_BYTES);
    if (!object || !found.path) throw new HttpError(404, 'Not Found');
    if (object.kind === 'dir')
      return reply.redirect(`${repoBase(repo)}/tree/${encodePath(found.ref)}/${encodePath(found.path)}`);
    const head = `${repoNav(ctx, repo, 'code')}${await branchSwitcher(ctx, repo, found, 'blob')}${breadcrumbs(repo, found)}`;
    if (object.kind === 'submodule')
      return sendPage(
        request,
        reply,
        ctx,
        found.path,
        `${head}<p>This is a submodule: its files live in another repository.</p>`,
      );
    const raw = `${repoBase(repo)}/raw/${encodePath(found.ref)}/${encodePath(found.path)}`;
    const meta = `<p><span class="muted">${esc(formatSize(object.size))}</span> · <a href="${esc(raw)}">Raw</a> · <a href="${esc(`${repoBase(repo)}/commits/${encodePath(found.ref)}`)}">History</a></p>`;
    let content: string;
    if (!object.content)
      content = `<p>This file is too large to display (${esc(formatSize(object.size))}). <a href="${esc(raw)}">View raw</a>.</p>`;
    else if (isBinary(object.content))
      content = `<p>Binary file not shown (${esc(formatSize(object.size))}). <a href="${esc(raw)}">Download raw</a>.</p>`;
    else content = `<div class="scroll box">${numberedLines(object.content.toString('utf8'))}</div>`;
    return sendPage(request, reply, ctx, found.path, head + meta + content);
  });

  app.get<{ Params: PathParams }>('/:owner/:repo/raw/*', async (request, reply) => {
    const { repo, found } = await locate(request);
    const object = await readPathCapped(host.repoPath(repo), found.commit, found.path, MAX_RAW_BYTES);
    if (!object || object.kind !== 'file') throw new HttpError(404, 'Not Found');
    if (!object.content) throw new HttpError(413, 'This file is too large to serve raw.');
    return sendRaw(reply, object.content);
  });
}

/**
 * A repository's bytes as plain text, never anything a browser would run: nosniff stops it
 * guessing HTML, and the sandboxing CSP holds even if it did.
 */
function sendRaw(reply: FastifyReply, content: Buffer): FastifyReply {
  return reply
    .header('content-type', 'text/plain; charset=utf-8')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('content-disposition', 'inline')
    .send(content);
}

function numberedLines(text: string): string {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const rows = lines
    .map((line, i) => `<tr id="L${i + 1}"><td class="num">${i + 1}</td><td>${esc(line)}</td></tr>`)
    .join('');
  return `<table class="code"><thead class="sr-only"><tr><th scope="col">Line</th><th scope="col">Code</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function breadcrumbs(repo: HostRepo, found: RefAndPath): string {
  const parts = found.path ? found.path.split('/') : [];
  const treeUrl = (upTo: number) =>
    `${repoBase(repo)}/tree/${encodePath(found.ref)}${upTo ? `/${encodePath(parts.slice(0, upTo).join('/'))}` : ''}`;
  const items = [
    parts.length
      ? `<li><a href="${esc(treeUrl(0))}">${esc(repo.name)}</a></li>`
      : `<li aria-current="page">${esc(repo.name)}</li>`,
    ...parts.map((part, i) =>
      i === parts.length - 1
        ? `<li aria-current="page">${esc(part)}</li>`
        : `<li><a href="${esc(treeUrl(i + 1))}">${esc(part)}</a></li>`,
    ),
  ];
  return `<nav class="crumbs" aria-label="Breadcrumbs"><ol>${items.join('')}</ol></nav>`;
}

/** Branches as links to the same path on each (no script needed, keyboard-friendly). */
async function branchSwitcher(
  ctx: Context,
  repo: HostRepo,
  found: RefAndPath,
  kind: 'tree' | 'blob',
): Promise<string> {
  const branches = await listBranches(ctx.host.repoPath(repo));
  const links = branches
    .map((b) => {
      const href = `${repoBase(repo)}/${kind}/${encodePath(b.name)}${found.path ? `/${encodePath(found.path)}` : ''}`;
      return `<li><a href="${esc(href)}"${b.name === found.ref ? ' aria-current="true"' : ''}>${esc(b.name)}</a></li>`;
    })
    .join('');
  return `<details class="branches"><summary>Branch: <strong>${esc(found.ref)}</strong> <span class="muted">(${branches.length} branches)</span></summary><ul aria-label="Branches">${links}</ul></details>`;
}

/** A directory at a ref: listing with links, and its README rendered (the repository home uses it too). */
export async function directoryView(
  ctx: Context,
  repo: HostRepo,
  found: RefAndPath,
  intro = '',
): Promise<string> {
  const bare = ctx.host.repoPath(repo);
  const entries = (await listTree(bare, found.commit, found.path)) ?? [];
  entries.sort(
    (a, b) => Number(b.type === 'tree') - Number(a.type === 'tree') || a.name.localeCompare(b.name),
  );
  const ref = encodePath(found.ref);
  const items = entries
    .map((e) => {
      if (e.type === 'commit') return `<li>${esc(e.name)} <span class="muted">submodule</span></li>`;
      const kind = e.type === 'tree' ? 'tree' : 'blob';
      const label = e.type === 'tree' ? `${e.name}/` : e.name;
      return `<li><a href="${esc(`${repoBase(repo)}/${kind}/${ref}/${encodePath(e.path)}`)}">${esc(label)}</a></li>`;
    })
    .join('');
  const list = entries.length
    ? `<ul class="files" aria-label="Files">${items}</ul>`
    : '<p class="muted">This directory is empty.</p>';
  const readmeEntry = entries.find(
    (e) => e.type === 'blob' && /^readme(\.(md|markdown|txt))?$/i.test(e.name),
  );
  let readme = '';
  if (readmeEntry) {
    const object = await readPathCapped(bare, found.commit, readmeEntry.path, MAX_VIEW_BYTES);
    if (object?.kind === 'file' && object.content && !isBinary(object.content)) {
      const text = object.content.toString('utf8');
      const html = /\.(md|markdown)$/i.test(readmeEntry.name)
        ? renderMarkdown(text)
        : `<pre>${esc(text)}</pre>`;
      readme = `<section class="box" aria-labelledby="readme-heading"><h2 id="readme-heading">${esc(readmeEntry.name)}</h2>${html}</section>`;
    }
  }
  const commits = `<p><a href="${esc(`${repoBase(repo)}/commits/${ref}`)}">Commits on ${esc(found.ref)}</a></p>`;
  return `${repoNav(ctx, repo, 'code')}${intro}${await branchSwitcher(ctx, repo, found, 'tree')}${breadcrumbs(repo, found)}${commits}${list}${readme}`;
}
