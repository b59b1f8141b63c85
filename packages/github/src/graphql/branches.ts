import type { GitHubClient } from '../client.js';
import type { BranchEntry } from '../schemas.js';
import { graphqlQuery } from './query.js';

/** Workspace §9: branch query page size. */
export const BRANCH_PAGE_SIZE = 100;

const BRANCHES_QUERY = `query($owner: String!, $name: String!, $cursor: String) {
  repository(owner: $owner, name: $name) {
    refs(refPrefix: "refs/heads/", first: ${BRANCH_PAGE_SIZE}, after: $cursor, orderBy: {field: TAG_COMMIT_DATE, direction: DESC}) {
      nodes { name target { ... on Commit { committedDate } } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

interface BranchesPage {
  repository: {
    refs: {
      nodes: { name: string; target: { committedDate?: string } | null }[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    } | null;
  } | null;
}

/**
 * Every branch of a repository, newest commit first, cursor-paged through GraphQL. A repository
 * that is missing or hidden (null without errors) has no branches; GraphQL errors are thrown.
 */
export async function listBranches(
  octokit: GitHubClient,
  repo: { owner: string; repo: string },
): Promise<BranchEntry[]> {
  const branches: BranchEntry[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | null = null;
  do {
    const page: BranchesPage = await graphqlQuery<BranchesPage>(octokit, BRANCHES_QUERY, {
      owner: repo.owner,
      name: repo.repo,
      cursor,
    });
    const refs = page.repository?.refs;
    if (!refs) break;
    for (const node of refs.nodes)
      branches.push({ name: node.name, committedDate: node.target?.committedDate ?? null });
    const next = refs.pageInfo.hasNextPage ? refs.pageInfo.endCursor : null;
    // A host that hands back a cursor it already gave would otherwise page for ever.
    cursor = next && !seenCursors.has(next) ? next : null;
    if (cursor) seenCursors.add(cursor);
  } while (cursor);
  return sortNewestFirst(branches);
}

/** The host already orders by commit date; sorting again keeps "newest first" true across pages. */
function sortNewestFirst(branches: BranchEntry[]): BranchEntry[] {
  const time = (b: BranchEntry) => (b.committedDate ? Date.parse(b.committedDate) : Number.NaN);
  return branches
    .map((branch, index) => ({ branch, index, at: time(branch) }))
    .sort((a, b) => {
      const aKnown = !Number.isNaN(a.at);
      const bKnown = !Number.isNaN(b.at);
      if (aKnown && bKnown && a.at !== b.at) return b.at - a.at;
      if (aKnown !== bKnown) return aKnown ? -1 : 1;
      return a.index - b.index;
    })
    .map((entry) => entry.branch);
}
