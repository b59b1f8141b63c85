import type { FastifyInstance } from 'fastify';
import { commitFiles, initBare, readAllFiles } from '../git/repo-files.js';
import {
  commitsBetween,
  countCommits,
  diffFiles,
  getCommit,
  isAncestor,
  isSymlink,
  listBranches,
  listCommits,
  listTree,
  mergeBase,
  readPath,
  resolveRef,
} from '../git/repo-reads.js';
import type { Host } from '../host.js';
import { pullJson, simplePull } from './pull-json.js';
import type { HostRepo } from '../store/types.js';
import { HttpError, paginate, readableRepo, requireUserActor, type Context } from './context.js';

type RepoParams = { owner: string; repo: string };
const REPO_NAME = /^[A-Za-z0-9._-]{1,100}$/;
/** GitHub returns no content for files over 1 MB from the contents API. */
const CONTENT_LIMIT = 1024 * 1024;

export function repoRoutes(app: FastifyInstance, ctx: Context): void {
  const { host, shapes } = ctx;

  app.get<{ Params: RepoParams }>('/repos/:owner/:repo', async (request) => {
    const { repo, actor } = readableRepo(request, ctx, request.params.owner, request.params.repo);
    const permission = actor.kind === 'user' ? host.permission(actor.user.login, repo) : 'write';
    return {
      ...shapes.fullRepo(repo),
      permissions: {
        admin: permission === 'admin',
        push: ['admin', 'write'].includes(permission),
        pull: true,
      },
    };
  });

  app.get<{ Params: RepoParams & { '*': string }; Querystring: { ref?: string } }>(
    '/repos/:owner/:repo/contents/*',
    async (request) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      const path = request.params['*'].replace(/^\/+|\/+$/g, '');
      const ref = request.query.ref ?? repo.defaultBranch;
      const bare = host.repoPath(repo);
      const found = path ? await readPath(bare, ref, path) : { kind: 'dir' as const };
      if (!found) throw new HttpError(404, 'Not Found');
      const full = `${repo.owner}/${repo.name}`;
      if (found.kind === 'dir') {
        const entries = await listTree(bare, ref, path);
        if (!entries) throw new HttpError(404, 'Not Found');
        return entries.map((e) => ({
          type: e.type === 'tree' ? 'dir' : 'file',
          name: e.name,
          path: e.path,
          sha: e.sha,
          size: e.size,
          url: `${shapes.apiUrl}/repos/${full}/contents/${e.path}?ref=${ref}`,
          html_url: `${shapes.webUrl}/${full}/blob/${ref}/${e.path}`,
        }));
      }
      const tooLarge = found.content.length > CONTENT_LIMIT;
      const url = `${shapes.apiUrl}/repos/${full}/contents/${path}?ref=${ref}`;
      const gitUrl = `${shapes.apiUrl}/repos/${full}/git/blobs/${found.sha}`;
      const htmlUrl = `${shapes.webUrl}/${full}/blob/${ref}/${path}`;
      // GitHub describes a link as a link (it answers with the target's content when that is a
      // file in the repository; this host never follows links): never its target text as a file.
      if (await isSymlink(bare, ref, path)) {
        return {
          type: 'symlink',
          target: found.content.toString('utf8'),
          name: path.split('/').at(-1),
          path,
          sha: found.sha,
          size: found.content.length,
          url,
          html_url: htmlUrl,
          git_url: gitUrl,
          download_url: `${shapes.webUrl}/${full}/raw/${ref}/${path}`,
          _links: { self: url, git: gitUrl, html: htmlUrl },
        };
      }
      return {
        type: 'file',
        name: path.split('/').at(-1),
        path,
        sha: found.sha,
        size: found.content.length,
        encoding: tooLarge ? 'none' : 'base64',
        content: tooLarge ? '' : found.content.toString('base64'),
        url,
        html_url: htmlUrl,
        git_url: gitUrl,
        download_url: `${shapes.webUrl}/${full}/raw/${ref}/${path}`,
        _links: { self: url, git: gitUrl, html: htmlUrl },
      };
    },
  );

  app.get<{ Params: RepoParams }>('/repos/:owner/:repo/branches', async (request, reply) => {
    const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
    const branches = await listBranches(host.repoPath(repo));
    return paginate(request, branches, (n, v) => reply.header(n, v), ctx).map((b) => ({
      name: b.name,
      commit: { sha: b.sha, url: `${shapes.apiUrl}/repos/${repo.owner}/${repo.name}/commits/${b.sha}` },
      protected: false,
    }));
  });

  app.get<{ Params: RepoParams & { branch: string } }>(
    '/repos/:owner/:repo/branches/:branch',
    async (request) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      const bare = host.repoPath(repo);
      const sha = await resolveRef(bare, `refs/heads/${request.params.branch}`);
      if (!sha) throw new HttpError(404, 'Branch not found');
      const commit = await getCommit(bare, sha);
      return { name: request.params.branch, commit: shapes.commit(repo, commit!), protected: false };
    },
  );

  app.get<{ Params: RepoParams; Querystring: { sha?: string } }>(
    '/repos/:owner/:repo/commits',
    async (request, reply) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      const bare = host.repoPath(repo);
      const ref = request.query.sha ?? repo.defaultBranch;
      if (!(await resolveRef(bare, ref))) throw new HttpError(404, 'Not Found');
      const commits = await listCommits(bare, ref, 1000);
      return paginate(request, commits, (n, v) => reply.header(n, v), ctx).map((c) => shapes.commit(repo, c));
    },
  );

  app.get<{ Params: RepoParams & { ref: string } }>('/repos/:owner/:repo/commits/:ref', async (request) => {
    const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
    const bare = host.repoPath(repo);
    const sha = await resolveRef(bare, request.params.ref);
    if (!sha) throw new HttpError(422, `No commit found for SHA: ${request.params.ref}`);
    const commit = (await getCommit(bare, sha))!;
    const parent = commit.parents[0] ?? '4b825dc642cb6eb9a060e54bf8d69288fbee4904'; // git's empty tree
    const files = await diffFiles(bare, parent, sha);
    return {
      ...shapes.commit(repo, commit),
      files: files.map((f) => fileJson(ctx, repo, sha, f)),
      stats: stats(files),
    };
  });

  app.get<{ Params: RepoParams & { basehead: string } }>(
    '/repos/:owner/:repo/compare/:basehead',
    async (request) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      const [base = '', head = ''] = request.params.basehead.split('...');
      return compare(host, repo, ctx, base, head);
    },
  );

  app.get<{ Params: RepoParams & { sha: string } }>(
    '/repos/:owner/:repo/commits/:sha/pulls',
    async (request) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      const bare = host.repoPath(repo);
      const full = `${repo.owner}/${repo.name}`;
      const pulls = [];
      for (const issue of host.state.issues.filter((i) => i.repo === full && i.pull)) {
        const headSha = await resolveRef(bare, `refs/heads/${issue.pull!.head}`);
        if (!headSha) continue;
        if (await isAncestor(bare, request.params.sha, headSha))
          pulls.push(simplePull(await pullJson(ctx, repo, issue)));
      }
      return pulls;
    },
  );

  app.get<{ Params: RepoParams & { username: string } }>(
    '/repos/:owner/:repo/collaborators/:username/permission',
    async (request) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      const user = host.user(request.params.username);
      if (!user) throw new HttpError(404, 'Not Found');
      const permission = host.permission(user.login, repo);
      return {
        permission,
        role_name: permission,
        // GitHub's collaborator: the account with its role on the repository.
        user: { ...shapes.account(user.login), role_name: permission },
      };
    },
  );

  const createRepo = async (
    owner: string,
    body: Record<string, unknown>,
    files: Record<string, string> | null,
    /** Who asked: the webhook's sender. */
    by: string,
  ) => {
    const name = typeof body.name === 'string' ? body.name : '';
    if (!REPO_NAME.test(name)) throw new HttpError(422, 'Repository creation failed: name is invalid');
    if (host.repo(owner, name))
      throw new HttpError(422, 'Repository creation failed: name already exists on this account');
    const repo: HostRepo = {
      id: host.store.nextId(),
      owner,
      name,
      private: body.private !== false,
      isTemplate: false,
      description: typeof body.description === 'string' ? body.description : '',
      defaultBranch: 'main',
      createdAt: new Date().toISOString(),
    };
    await initBare(host.repoPath(repo), 'main');
    const initial = files ?? (body.auto_init ? { 'README.md': `# ${name}\n` } : null);
    if (initial) await commitFiles(host.repoPath(repo), 'main', initial, 'Initial commit');
    host.store.update((s) => s.repos.push(repo));
    const installation = host.installationFor(owner);
    if (installation) {
      ctx.webhooks.send('installation_repositories', {
        action: 'added',
        installation: shapes.installation(installation),
        repository_selection: 'all',
        repositories_added: [
          {
            id: repo.id,
            node_id: `R_${repo.id}`,
            name: repo.name,
            full_name: `${owner}/${name}`,
            private: repo.private,
          },
        ],
        repositories_removed: [],
        requester: null,
        sender: shapes.account(by),
      });
    }
    return shapes.fullRepo(repo);
  };

  app.post<{ Body: Record<string, unknown> }>('/user/repos', async (request, reply) => {
    const { user } = requireUserActor(request, host);
    return reply.status(201).send(await createRepo(user.login, request.body ?? {}, null, user.login));
  });

  app.post<{ Params: { org: string }; Body: Record<string, unknown> }>(
    '/orgs/:org/repos',
    async (request, reply) => {
      const { user } = requireUserActor(request, host);
      const role = host.orgRole(request.params.org, user.login);
      if (!role) throw new HttpError(404, 'Not Found');
      if (role !== 'admin')
        throw new HttpError(403, 'You need admin access to the organization to create repositories');
      return reply
        .status(201)
        .send(await createRepo(host.org(request.params.org)!.login, request.body ?? {}, null, user.login));
    },
  );

  app.post<{ Params: RepoParams; Body: Record<string, unknown> }>(
    '/repos/:owner/:repo/generate',
    async (request, reply) => {
      const { user } = requireUserActor(request, host);
      const template = host.repo(request.params.owner, request.params.repo);
      if (!template || !template.isTemplate || !host.canRead({ kind: 'user', user }, template)) {
        throw new HttpError(404, 'Not Found');
      }
      const body = request.body ?? {};
      const owner = typeof body.owner === 'string' ? body.owner : user.login;
      if (owner.toLowerCase() !== user.login.toLowerCase() && host.orgRole(owner, user.login) !== 'admin') {
        throw new HttpError(403, 'You cannot create repositories on this account');
      }
      const files = await readAllFiles(host.repoPath(template), template.defaultBranch);
      return reply.status(201).send(await createRepo(owner, body, files, user.login));
    },
  );
}

export function fileJson(
  ctx: Context,
  repo: HostRepo,
  ref: string,
  f: Awaited<ReturnType<typeof diffFiles>>[number],
) {
  const full = `${repo.owner}/${repo.name}`;
  const path = f.filename.split('/').map(encodeURIComponent).join('/');
  return {
    sha: f.sha,
    filename: f.filename,
    blob_url: `${ctx.shapes.webUrl}/${full}/blob/${ref}/${path}`,
    raw_url: `${ctx.shapes.webUrl}/${full}/raw/${ref}/${path}`,
    contents_url: `${ctx.shapes.apiUrl}/repos/${full}/contents/${path}?ref=${ref}`,
    ...(f.previousFilename ? { previous_filename: f.previousFilename } : {}),
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    patch: f.patch,
  };
}

function stats(files: Awaited<ReturnType<typeof diffFiles>>) {
  const additions = files.reduce((n, f) => n + f.additions, 0);
  const deletions = files.reduce((n, f) => n + f.deletions, 0);
  return { additions, deletions, total: additions + deletions };
}

export async function compare(host: Host, repo: HostRepo, ctx: Context, base: string, head: string) {
  const bare = host.repoPath(repo);
  const baseSha = await resolveRef(bare, base);
  const headSha = await resolveRef(bare, head);
  if (!baseSha || !headSha) throw new HttpError(404, 'Not Found');
  const mergeBaseSha = (await mergeBase(bare, baseSha, headSha)) ?? baseSha;
  const commits = await commitsBetween(bare, baseSha, headSha);
  const files = await diffFiles(bare, mergeBaseSha, headSha);
  const aheadBy = await countCommits(bare, `${baseSha}..${headSha}`);
  const behindBy = await countCommits(bare, `${headSha}..${baseSha}`);
  const baseCommit = (await getCommit(bare, baseSha))!;
  const mergeBaseCommit = (await getCommit(bare, mergeBaseSha))!;
  return {
    status: aheadBy && behindBy ? 'diverged' : aheadBy ? 'ahead' : behindBy ? 'behind' : 'identical',
    ahead_by: aheadBy,
    behind_by: behindBy,
    total_commits: commits.length,
    base_commit: ctx.shapes.commit(repo, baseCommit),
    merge_base_commit: ctx.shapes.commit(repo, mergeBaseCommit),
    commits: commits.map((c) => ctx.shapes.commit(repo, c)),
    files: files.map((f) => fileJson(ctx, repo, headSha, f)),
    url: `${ctx.shapes.apiUrl}/repos/${repo.owner}/${repo.name}/compare/${base}...${head}`,
    html_url: `${ctx.shapes.webUrl}/${repo.owner}/${repo.name}/compare/${base}...${head}`,
    permalink_url: `${ctx.shapes.webUrl}/${repo.owner}/${repo.name}/compare/${baseSha}...${headSha}`,
    diff_url: `${ctx.shapes.webUrl}/${repo.owner}/${repo.name}/compare/${base}...${head}.diff`,
    patch_url: `${ctx.shapes.webUrl}/${repo.owner}/${repo.name}/compare/${base}...${head}.patch`,
  };
}
