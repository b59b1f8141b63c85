import type { GitHubClient } from '@tandem/github';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  PREFETCH_KEEP_MS,
  prefetchInstructions,
  prefetchStats,
  sharedInstructionsAt,
  takePrefetchedInstructions,
} from './instruction-reads.js';
import { INSTRUCTIONS_FILE } from './repo-instructions.js';

/**
 * A contents API that answers when the test says: what these tests check is which reads share one
 * request and which make their own, so each request's moment matters, not the code host's work
 * (agent-background-sandbox.test.ts reads through the real local code host).
 */
function contentsApi() {
  const asked: { ref: string; answer: (text: string) => void }[] = [];
  const octokit = {
    rest: {
      repos: {
        getContent: ({ ref }: { ref: string }) =>
          new Promise((resolve) =>
            asked.push({
              ref,
              answer: (text) => {
                const bytes = Buffer.from(text);
                resolve({
                  data: {
                    type: 'file',
                    path: INSTRUCTIONS_FILE,
                    size: bytes.length,
                    encoding: 'base64',
                    content: bytes.toString('base64'),
                  },
                });
              },
            }),
          ),
      },
    },
  } as unknown as GitHubClient;
  return { octokit, asked };
}

let nextRepo = 1;
/** A repository of its own per test: reads are shared module-wide, by repository. */
const freshRepo = () => {
  const name = `webapp-${nextRepo++}`;
  return { installationId: 7, fullName: `acme/${name}`, owner: 'acme', name };
};

afterEach(() => vi.useRealTimers());

describe('instructions reads', () => {
  it('shares one request among runs asking at the same time, and asks again once it is in', async () => {
    const { octokit, asked } = contentsApi();
    const repo = freshRepo();
    const first = sharedInstructionsAt(octokit, repo, 'main');
    const second = sharedInstructionsAt(octokit, repo, 'main');
    const otherRef = sharedInstructionsAt(octokit, repo, 'dev');
    expect(asked.map((a) => a.ref)).toEqual(['main', 'dev']);
    asked[0]!.answer('Run the tests.');
    asked[1]!.answer('Dev notes.');
    expect(await first).toBe('Run the tests.');
    expect(await second).toBe('Run the tests.');
    expect(await otherRef).toBe('Dev notes.');
    // Nothing is kept once the answer is in: a later run reads afresh.
    const later = sharedInstructionsAt(octokit, repo, 'main');
    expect(asked).toHaveLength(3);
    asked[2]!.answer('Run the linter too.');
    expect(await later).toBe('Run the linter too.');
  });

  it("gives a new agent's first prompt the read started when it was created, once", async () => {
    const { octokit, asked } = contentsApi();
    const repo = freshRepo();
    const { taken } = prefetchStats();
    prefetchInstructions('agent-a', octokit, repo, 'main');
    prefetchInstructions('agent-b', octokit, repo, 'main');
    expect(asked).toHaveLength(1);
    asked[0]!.answer('Run the tests.');
    // Taken after the answer is in: still this agent's read, no second request.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await takePrefetchedInstructions('agent-a', repo, 'main')).toBe('Run the tests.');
    expect(await takePrefetchedInstructions('agent-b', repo, 'main')).toBe('Run the tests.');
    expect(asked).toHaveLength(1);
    expect(prefetchStats().taken).toBe(taken + 2);
    // Once only: the agent's later runs read for themselves.
    expect(takePrefetchedInstructions('agent-a', repo, 'main')).toBeUndefined();
    // Never another agent's, nor another repository's.
    expect(takePrefetchedInstructions('agent-c', repo, 'main')).toBeUndefined();
    prefetchInstructions('agent-d', octokit, repo, 'main');
    expect(takePrefetchedInstructions('agent-d', freshRepo(), 'main')).toBeUndefined();
    // Dropped by that look: the right repository gets none afterwards either.
    expect(takePrefetchedInstructions('agent-d', repo, 'main')).toBeUndefined();
  });

  it('does not give a read for another ref than the one the run settled on', async () => {
    const { octokit, asked } = contentsApi();
    const repo = freshRepo();
    prefetchInstructions('agent-e', octokit, repo, 'main');
    expect(takePrefetchedInstructions('agent-e', repo, 'release')).toBeUndefined();
    asked[0]!.answer('Main notes.');
  });

  it('drops a read the run did not take in time, and keeps no more than that', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { octokit, asked } = contentsApi();
    const repo = freshRepo();
    prefetchInstructions('agent-f', octokit, repo, 'main');
    asked[0]!.answer('Stale soon.');
    vi.setSystemTime(Date.now() + PREFETCH_KEEP_MS);
    // Too old for its run: the run reads afresh.
    expect(takePrefetchedInstructions('agent-f', repo, 'main')).toBeUndefined();
    // Untaken ones go when the next agent's read starts past their time.
    for (let i = 0; i < 50; i++) prefetchInstructions(`untaken-${i}`, octokit, repo, 'main');
    const waiting = prefetchStats().waiting;
    expect(waiting).toBeGreaterThanOrEqual(50);
    vi.setSystemTime(Date.now() + PREFETCH_KEEP_MS);
    prefetchInstructions('agent-g', octokit, repo, 'main');
    expect(prefetchStats().waiting).toBe(waiting - 49);
    for (const request of asked.slice(1)) request.answer('');
  });
});
