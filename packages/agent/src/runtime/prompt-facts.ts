import { statusOf, type GitHubClient } from '@tandem/github';
import type { Db } from '@tandem/db';
import { firstFreeBranch } from '../sandbox/free-branch.js';
import { readRepoInstructionsAt } from './repo-instructions.js';
import type { AgentRow, RepoInfo } from './tools/types.js';
import { baseBranchOf, wantedBranch } from './warm-sandbox.js';

/** What the system prompt takes from the repository: the checkout's branches and its instructions. */
export interface PromptFacts {
  branch: string;
  baseBranch: string;
  instructions: string | null;
}

/** Whether the code host has the branch under exactly this name (GitHub answers a renamed one too). */
async function branchExists(octokit: GitHubClient, repo: RepoInfo, branch: string): Promise<boolean> {
  try {
    const { data } = await octokit.rest.repos.getBranch({ owner: repo.owner, repo: repo.name, branch });
    return data.name === branch;
  } catch (error) {
    if (statusOf(error) === 404) return false;
    throw error;
  }
}

/** Instruction reads in flight, by installation, repository and ref (see sharedInstructionsAt). */
const reading = new Map<string, Promise<string | null | undefined>>();

/**
 * The instructions file at a ref, one request for all runs that ask at the same time: a hundred
 * agents started together on one repository would otherwise ask the code host a hundred times for
 * the same file (the bottleneck of bench/steps.ts's many-agents figure). Nothing is kept once the
 * answer is in, so a read never answers from before it was asked.
 */
function sharedInstructionsAt(
  octokit: GitHubClient,
  repo: RepoInfo,
  ref: string,
): Promise<string | null | undefined> {
  const key = JSON.stringify([repo.installationId, repo.fullName, ref]);
  let read = reading.get(key);
  if (!read) {
    read = readRepoInstructionsAt(octokit, { owner: repo.owner, repo: repo.name, ref })
      .catch(() => undefined)
      .finally(() => reading.delete(key));
    reading.set(key, read);
  }
  return read;
}

/**
 * The prompt's facts for a run whose workspace is still being cloned, asked of the code host's API
 * with the same rules prepareWorkspace applies to the fresh clone: the base branch from the agent
 * and repository rows, the agent's branch (its own, or the first free name), and the instructions
 * file of the commit the clone checks out (the agent's branch when the code host has it, else the
 * base). `undefined` when the API cannot say for sure (an error, a base branch that the workspace
 * would first create): the run then waits for the clone and reads it, as without this.
 *
 * Between these reads and the clone's fetch someone could push: the workspace is then the truth, and
 * every later model call of the run takes its branches from the workspace.
 */
export async function promptFactsWithoutClone(
  db: Db,
  octokit: GitHubClient,
  agent: AgentRow,
  repo: RepoInfo,
): Promise<PromptFacts | undefined> {
  try {
    const baseBranch = baseBranchOf(agent, repo);
    const wanted = await wantedBranch(db, agent);
    // Both asked at once; neither rejects, so an early return leaves nothing unhandled.
    const atBase = sharedInstructionsAt(octokit, repo, baseBranch);
    // A chosen base the code host lacks is created from its default branch: that file is unknown here.
    const baseKnown = agent.baseBranch === null || branchExists(octokit, repo, baseBranch).catch(() => false);
    if (typeof wanted === 'string') {
      if (await branchExists(octokit, repo, wanted)) {
        const instructions = await sharedInstructionsAt(octokit, repo, wanted);
        if (instructions === undefined) return undefined;
        return { branch: wanted, baseBranch, instructions };
      }
      const [instructions, known] = await Promise.all([atBase, baseKnown]);
      if (instructions === undefined || !known) return undefined;
      return { branch: wanted, baseBranch, instructions };
    }
    const branch = await firstFreeBranch(wanted.free, (candidate) => branchExists(octokit, repo, candidate));
    const [instructions, known] = await Promise.all([atBase, baseKnown]);
    if (!branch || instructions === undefined || !known) return undefined;
    return { branch, baseBranch, instructions };
  } catch {
    return undefined;
  }
}
