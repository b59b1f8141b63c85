import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { detectSandbox, git } from '@tandem/agent';
import { startCodeHost, type RunningCodeHost } from '@tandem/codehost';
import { createGitHubClient, jobLogTail, listRuns, type GitHubClient } from '@tandem/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCiOptions } from './code-host-setup.js';

const at = { owner: 'acme', repo: 'webapp' };
const sandboxed = (await detectSandbox()).kind === 'bubblewrap';

/**
 * The product's CI reads (packages/github: listRuns, jobLogTail) against the local code host's CI
 * as the server wires it: workflow steps run in the agents' sandbox.
 */
describe('the local CI as the product runs and reads it', () => {
  let host: RunningCodeHost;
  let dataDir: string;
  let work: string;
  let octokit: GitHubClient;
  let sha: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tandem-ci-host-'));
    work = mkdtempSync(join(tmpdir(), 'tandem-ci-work-'));
    host = await startCodeHost({ dataDir, port: 0, ci: { ...localCiOptions(), jobTimeoutMs: 120_000 } });
    const token = await host.issueUserToken('ada');
    octokit = createGitHubClient({ baseUrl: host.apiUrl, auth: token, throttle: false });
    const auth = { token };
    expect(
      (await git(work, ['clone', '--quiet', `${host.url}/acme/webapp.git`, 'repo'], { auth })).exitCode,
    ).toBe(0);
    const repo = join(work, 'repo');
    const files: Record<string, string> = {
      'test/math.test.js': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { add } from '../src/math.js';

test('add is broken on purpose', () => {
  assert.equal(add(2, 3), 6);
});
`,
      // Hostile: tries to read the code host's own store from inside the job.
      '.github/workflows/escape.yml': `name: Escape
on: push
jobs:
  peek:
    steps:
      - run: |
          if cat "${join(dataDir, 'store.json')}" >/dev/null 2>&1; then echo "read the store"; exit 1; fi
          if ls "${join(dataDir, 'repos')}" >/dev/null 2>&1; then echo "saw the repositories"; exit 1; fi
          echo "the store is not visible"
          node -e "process.exit(0)" || { echo "node is missing, so the next check would prove nothing"; exit 1; }
          if node -e "fetch(process.argv[1]).then(() => process.exit(0), () => process.exit(1))" "${host.url}"; then
            echo "reached the code host"; exit 1
          fi
          echo "the code host is not reachable"
`,
    };
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), content);
    }
    const id = ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com'];
    expect((await git(repo, ['add', '-A'])).exitCode).toBe(0);
    expect((await git(repo, [...id, 'commit', '--quiet', '-m', 'Break a test'])).exitCode).toBe(0);
    expect(
      (await git(repo, ['push', '--quiet', 'origin', 'HEAD:refs/heads/broken'], { auth })).exitCode,
    ).toBe(0);
    sha = (await git(repo, ['rev-parse', 'HEAD'])).stdout.trim();
    await host.ciIdle();
  }, 180_000);
  afterAll(async () => {
    await host?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  it('lists the failed run with its failed step and reads the failure from the log tail', async () => {
    const runs = await listRuns(octokit, at, { headSha: sha });
    const ci = runs.find((r) => r.name === 'CI');
    expect(ci).toMatchObject({
      headSha: sha,
      headBranch: 'broken',
      status: 'completed',
      conclusion: 'failure',
    });
    expect(ci!.jobs).toEqual([
      expect.objectContaining({ name: 'Test', conclusion: 'failure', failedStep: 'Run the tests' }),
    ]);
    const tail = await jobLogTail(octokit, at, ci!.jobs[0]!.id);
    expect(tail.truncated).toBe(false);
    expect(tail.text).toContain('add is broken on purpose');
    expect(tail.text).toContain('Process completed with exit code 1');
    const cut = await jobLogTail(octokit, at, ci!.jobs[0]!.id, 200);
    expect(cut).toMatchObject({ truncated: true });
    expect(Buffer.byteLength(cut.text)).toBeLessThanOrEqual(200);
  });

  it.skipIf(!sandboxed)("runs steps in bubblewrap, without the code host's files or network", async () => {
    const [escape] = (await listRuns(octokit, at, { headSha: sha })).filter((r) => r.name === 'Escape');
    const tail = await jobLogTail(octokit, at, escape!.jobs[0]!.id);
    expect(tail.text).toContain('the store is not visible');
    expect(tail.text).toContain('the code host is not reachable');
    expect(escape).toMatchObject({ conclusion: 'success' });
  });
});
