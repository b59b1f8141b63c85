import type { GitHubClient } from '@tandem/github';
import { readRepoInstructionsAt } from './repo-instructions.js';

/** A repository as the instructions reads name it (a RepoInfo, or what made a new agent knew). */
export interface InstructionsSource {
  installationId: number;
  fullName: string;
  owner: string;
  name: string;
}

/** What a read gives: the instructions, null for none, undefined when the code host could not say. */
type InstructionsRead = Promise<string | null | undefined>;

const keyOf = (repo: InstructionsSource, ref: string) =>
  JSON.stringify([repo.installationId, repo.fullName, ref]);

/** Instruction reads in flight, by installation, repository and ref (see sharedInstructionsAt). */
const reading = new Map<string, InstructionsRead>();

/**
 * The instructions file at a ref, one request for all runs that ask at the same time: a hundred
 * agents started together on one repository would otherwise ask the code host a hundred times for
 * the same file (the bottleneck of bench/steps.ts's many-agents figure). Nothing is kept here once
 * the answer is in, so a read never answers from before it was asked (a read prefetched for a new
 * agent is kept for that agent alone, below).
 */
export function sharedInstructionsAt(
  octokit: GitHubClient,
  repo: InstructionsSource,
  ref: string,
): InstructionsRead {
  const key = keyOf(repo, ref);
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
 * Reads started when an agent was created, by agent id, for its first prompt (prefetchInstructions).
 * Oldest first: entries are dropped once taken, too old, or past the cap, so the map stays small
 * whatever happens to the agents.
 */
const prefetched = new Map<string, { key: string; read: InstructionsRead; at: number }>();
/**
 * How long a prefetched read stays usable. The agent's first prompt then states the instructions
 * as they were at most this long before its run asked; a run that starts later (queued behind the
 * runner's concurrency) reads afresh.
 */
export const PREFETCH_KEEP_MS = 30_000;
const PREFETCH_MAX = 10_000;

/**
 * Starts the instructions read a new agent's first prompt will want, as the agent is created: its
 * run would ask only after opening the agent in the database (with a hundred agents created at
 * once, 100-200 ms later), and with GitHub the read is a network round trip of its own. The read
 * is the same one the run would make, started after the agent existed, so it is as fresh as the
 * agent (docs/decisions.md "A new agent's instructions read started at its creation").
 */
export function prefetchInstructions(
  agentId: string,
  octokit: GitHubClient,
  repo: InstructionsSource,
  ref: string,
): void {
  const now = Date.now();
  prefetched.delete(agentId);
  for (const [id, entry] of prefetched) {
    if (now - entry.at < PREFETCH_KEEP_MS && prefetched.size < PREFETCH_MAX) break;
    prefetched.delete(id);
  }
  prefetched.set(agentId, { key: keyOf(repo, ref), read: sharedInstructionsAt(octokit, repo, ref), at: now });
}

/**
 * The read prefetchInstructions started for this agent at this repository and ref, once: undefined
 * when there was none, it was for another ref (the run found a different base), or it is too old.
 */
export function takePrefetchedInstructions(
  agentId: string,
  repo: InstructionsSource,
  ref: string,
): InstructionsRead | undefined {
  const entry = prefetched.get(agentId);
  if (!entry) return undefined;
  prefetched.delete(agentId);
  if (entry.key !== keyOf(repo, ref) || Date.now() - entry.at >= PREFETCH_KEEP_MS) return undefined;
  taken += 1;
  return entry.read;
}

let taken = 0;

/** Prefetched reads waiting to be taken, and how many a first prompt used (tests). */
export function prefetchStats(): { waiting: number; taken: number } {
  return { waiting: prefetched.size, taken };
}
