import type { Actor } from '../host.js';
import { commitsBetween, diffFiles, getCommit, listBranches, type CommitInfo } from '../git/repo-reads.js';
import type { Context } from '../rest/context.js';
import { eventBase } from '../rest/issue-model.js';
import { pullJson } from '../rest/pull-json.js';
import type { HostRepo } from '../store/types.js';

export const ZERO_SHA = '0000000000000000000000000000000000000000';
/** GitHub lists at most 20 commits in a push payload. */
const MAX_PUSH_COMMITS = 20;
/** git's empty tree: the parent of a root commit for diffs. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** The repository's branches now, to compare against after a change (push or merge). */
export function branchSnapshot(ctx: Context, repo: HostRepo) {
  return listBranches(ctx.host.repoPath(repo));
}

/**
 * Sends `push` for every branch that moved since `before`, as GitHub does (commits with their
 * added/removed/modified files, compare URL, pusher), and `pull_request` synchronize for open pull
 * requests whose head moved. Used by git pushes and by merges through the API or the pages.
 */
export async function announcePush(
  ctx: Context,
  repo: HostRepo,
  actor: Actor,
  before: { name: string; sha: string }[],
): Promise<void> {
  const bare = ctx.host.repoPath(repo);
  const after = await listBranches(bare);
  const old = new Map(before.map((b) => [b.name, b.sha]));
  const now = new Map(after.map((b) => [b.name, b.sha]));
  const full = `${repo.owner}/${repo.name}`;
  const web = `${ctx.shapes.webUrl}/${full}`;
  const login = ctx.host.actorLogin(actor);
  const pusher = {
    name: login,
    email: actor.kind === 'user' ? actor.user.email : null,
  };
  for (const branch of new Set([...old.keys(), ...now.keys()])) {
    const from = old.get(branch) ?? ZERO_SHA;
    const to = now.get(branch) ?? ZERO_SHA;
    if (from === to) continue;
    const commits =
      to === ZERO_SHA
        ? []
        : from === ZERO_SHA
          ? [(await getCommit(bare, to))!]
          : await commitsBetween(bare, from, to);
    const shown = await Promise.all(
      commits.slice(-MAX_PUSH_COMMITS).map((c) => pushCommit(ctx, repo, web, c)),
    );
    ctx.webhooks.send('push', {
      ref: `refs/heads/${branch}`,
      before: from,
      after: to,
      created: from === ZERO_SHA,
      deleted: to === ZERO_SHA,
      forced: false,
      base_ref: null,
      compare:
        from === ZERO_SHA
          ? `${web}/commit/${to.slice(0, 12)}`
          : `${web}/compare/${from.slice(0, 12)}...${to.slice(0, 12)}`,
      commits: shown,
      head_commit: shown.at(-1) ?? null,
      pusher,
      ...eventBase(ctx, repo, actor),
    });
    for (const issue of ctx.host.state.issues.filter(
      (i) => i.repo === full && i.pull?.head === branch && i.state === 'open',
    )) {
      ctx.webhooks.send('pull_request', {
        action: 'synchronize',
        number: issue.number,
        before: from,
        after: to,
        pull_request: await pullJson(ctx, repo, issue),
        ...eventBase(ctx, repo, actor),
      });
    }
    // After the push's own events, as on GitHub: the workflows of the new head.
    if (to !== ZERO_SHA) ctx.ci?.pushed(repo, branch, to, actor);
  }
}

async function pushCommit(ctx: Context, repo: HostRepo, web: string, c: CommitInfo) {
  const files = await diffFiles(ctx.host.repoPath(repo), c.parents[0] ?? EMPTY_TREE, c.sha);
  const names = (status: string) => files.filter((f) => f.status === status).map((f) => f.filename);
  // A rename shows as the new name added and the old one removed, as in GitHub's push payloads.
  const renamed = files.filter((f) => f.status === 'renamed');
  const person = { name: c.authorName, email: c.authorEmail };
  return {
    id: c.sha,
    tree_id: c.tree,
    distinct: true,
    message: c.message,
    timestamp: c.date,
    url: `${web}/commit/${c.sha}`,
    author: person,
    // The code host keeps no separate committer; git here commits as the author.
    committer: person,
    added: [...names('added'), ...renamed.map((f) => f.filename)],
    removed: [...names('removed'), ...renamed.map((f) => f.previousFilename!)],
    modified: names('modified'),
  };
}
