import { statusOf, type GitHubClient } from '@tandem/github';
import type { Db } from '@tandem/db';
import { firstFreeBranch } from '../sandbox/free-branch.js';
import { sharedInstructionsAt, takePrefetchedInstructions } from './instruction-reads.js';
import type { AgentRow, RepoInfo } from './tools/types.js';
import { baseBranchOf, wantedBranch } from './warm-sandbox.js';

/** What the system prompt takes from the repository: the checkout's branches and its instructions. */
export interface PromptFacts {
  branch: string;
  baseBranch: string;
  instructions: string | null;
}

/**
 * The check of facts a model call was given as assumed (askPromptFacts; made by
 * RunSandbox.confirmation): `confirmed` resolves true when they hold, false when they did not
 * (promptFacts() then gives the real ones), null when the run stopped first; it rejects when only
 * the clone could say and preparing it failed. `hurry` runs the check now rather than when the
 * server is next quiet (the model has answered).
 */
export interface FactsConfirmation {
  confirmed: Promise<boolean | null>;
  hurry(): void;
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

/**
 * Facts the first prompt states before the code host has confirmed them (askPromptFacts), and the
 * check that confirms them once the model request is out: the facts as they really are, or
 * undefined when the API cannot say for sure (the workspace's clone then says).
 */
export interface AssumedFacts {
  facts: PromptFacts;
  confirm(): Promise<PromptFacts | undefined>;
  /** Says the facts were wrong: the repository is not guessed on for a while (takenSeen). */
  refuted(): void;
}

/**
 * Repositories where an assumed branch turned out taken, and when: there the guess is not made again
 * for a day. Agent numbers count per repository in Tandem's database, so a repository that had
 * agents before (another database, or the app removed and installed again) has its old
 * `tandem-<n>` branches, and every new agent there would collide until its numbers pass them:
 * each collision cost a model request aborted after the check.
 */
const takenSeen = new Map<string, number>();
const TAKEN_MEMORY_MS = 24 * 60 * 60_000;
const TAKEN_MEMORY_MAX = 10_000;

const repoKey = (repo: RepoInfo) => `${repo.installationId} ${repo.fullName}`;

function mayAssume(repo: RepoInfo): boolean {
  const seen = takenSeen.get(repoKey(repo));
  return seen === undefined || Date.now() - seen > TAKEN_MEMORY_MS;
}

function rememberTaken(repo: RepoInfo): void {
  const key = repoKey(repo);
  takenSeen.delete(key);
  takenSeen.set(key, Date.now());
  // Oldest first (insertion order): the memory stays bounded however many repositories collide.
  if (takenSeen.size > TAKEN_MEMORY_MAX) takenSeen.delete(takenSeen.keys().next().value!);
}

/** Forgets every collision (tests that need the guess made on a repository that had one). */
export function forgetTakenBranches(): void {
  takenSeen.clear();
}

/**
 * The prompt's facts for a run whose workspace is still being cloned, asked of the code host's API
 * with the same rules prepareWorkspace applies to the fresh clone: the base branch from the agent
 * and repository rows, the agent's branch (its own, or the first free name), and the instructions
 * file of the commit the clone checks out (the agent's branch when the code host has it, else the
 * base). `undefined` when the API cannot say for sure (an error, a base branch that the workspace
 * would first create): the run then waits for the clone and reads it, as without this.
 *
 * A new agent on the repository's default branch does not wait for its branch check, a code-host
 * round trip (and, with a hundred agents starting at once, the largest part of the server's work
 * before their model requests: bench/README.md). Its branch is assumed to be its first free name,
 * `tandem-<number>`, which it almost always is (numbers are not reused; see takenSeen for a
 * repository where they were), and `assumed` confirms
 * it while the model works (run-sandbox.ts, call-model.ts); its instructions are the base branch's
 * either way, since a free branch is made from the base, and come from the read its creation
 * started when there was one (instruction-reads.ts).
 *
 * Between these reads and the clone's fetch someone could push: the workspace is then the truth, and
 * every later model call of the run takes its branches from the workspace.
 */
export async function askPromptFacts(
  db: Db,
  octokit: GitHubClient,
  agent: AgentRow,
  repo: RepoInfo,
): Promise<{ facts: PromptFacts; assumed?: AssumedFacts } | undefined> {
  try {
    const baseBranch = baseBranchOf(agent, repo);
    const wanted = await wantedBranch(db, agent);
    const taken = (candidate: string) => branchExists(octokit, repo, candidate);
    // Both asked at once; neither rejects, so an early return leaves nothing unhandled.
    const atBase =
      takePrefetchedInstructions(agent.id, repo, baseBranch) ??
      sharedInstructionsAt(octokit, repo, baseBranch);
    if (typeof wanted !== 'string' && agent.baseBranch === null && mayAssume(repo)) {
      const instructions = await atBase;
      if (instructions === undefined) return undefined;
      const facts: PromptFacts = { branch: wanted.free, baseBranch, instructions };
      const confirm = async () => {
        const branch = await firstFreeBranch(wanted.free, taken).catch(() => undefined);
        return branch === undefined ? undefined : { ...facts, branch };
      };
      return { facts, assumed: { facts, confirm, refuted: () => rememberTaken(repo) } };
    }
    // A chosen base the code host lacks is created from its default branch: that file is unknown here.
    const baseKnown = agent.baseBranch === null || taken(baseBranch).catch(() => false);
    if (typeof wanted === 'string') {
      if (await taken(wanted)) {
        const instructions = await sharedInstructionsAt(octokit, repo, wanted);
        return instructions === undefined
          ? undefined
          : { facts: { branch: wanted, baseBranch, instructions } };
      }
      const [instructions, known] = await Promise.all([atBase, baseKnown]);
      if (instructions === undefined || !known) return undefined;
      return { facts: { branch: wanted, baseBranch, instructions } };
    }
    const branch = await firstFreeBranch(wanted.free, taken);
    const [instructions, known] = await Promise.all([atBase, baseKnown]);
    if (!branch || instructions === undefined || !known) return undefined;
    return { facts: { branch, baseBranch, instructions } };
  } catch {
    return undefined;
  }
}
