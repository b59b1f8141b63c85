import type { AgentBranch } from '@tandem/shared';

/** The diff tab's title (workspace §2): the pull request number, else the branch name, else 'Diff'. */
export function diffTitle(number: number | null, branch: string | null): string {
  if (number !== null) return `#${number}`;
  return branch || 'Diff';
}

/** The title for a branch as the server describes it. */
export function diffTabTitle(branch: AgentBranch | undefined, sourceId: string | null): string {
  if (sourceId === null || !branch) return 'Diff';
  return diffTitle(branch.pull_request?.number ?? null, branch.branch);
}

/** Create PR is offered for a pushed branch that has no pull request yet. */
export const canCreatePr = (branch: AgentBranch) => branch.pushed && branch.pull_request === null;

/**
 * The code host's compare page, prefilled: `expand=1` opens the form, the title is the draft's
 * (or the last commit's) and the body the draft's.
 */
export function createPrUrl(branch: AgentBranch): string {
  const title = branch.draft_title || branch.commits[branch.commits.length - 1]?.title || branch.branch;
  const params = new URLSearchParams({ expand: '1', title, body: branch.draft_body });
  const separator = branch.compare_url.includes('?') ? '&' : '?';
  return `${branch.compare_url}${separator}${params.toString()}`;
}
