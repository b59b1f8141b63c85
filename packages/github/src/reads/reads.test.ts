import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient } from '../client.js';
import { fileReadResultSchema } from '../schemas.js';
import {
  startScriptedServer,
  type ScriptedResponse,
  type ScriptedServer,
} from '../testing/scripted-server.js';
import { compareBranches, getCommit, getCommitDiffs } from './commits.js';
import { MAX_FILE_BYTES, readFile } from './files.js';
import { getPullSummary, listPullCommits, pullsForCommit } from './pulls.js';
import { getDefaultBranch, getIssueSummary } from './repos.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

const octokit = () =>
  createGitHubClient({ baseUrl: `${server.url}/api/v3`, auth: 't', throttle: false, retryDelayScale: 0.001 });
const repo = { owner: 'acme', repo: 'webapp' };

describe('readFile', () => {
  const file = (content: Buffer, extra: Record<string, unknown> = {}): ScriptedResponse => ({
    status: 200,
    body: {
      type: 'file',
      encoding: 'base64',
      size: content.length,
      content: content.toString('base64'),
      ...extra,
    },
  });
  const read = async (...answers: ScriptedResponse[]) => {
    server.answer(...answers);
    const result = await readFile(octokit(), { ...repo, path: 'src/app.ts', ref: 'main' });
    expect(fileReadResultSchema.parse(result)).toEqual(result);
    return result;
  };

  it('returns text', async () => {
    expect(await read(file(Buffer.from('héllo\n')))).toEqual({ status: 'ok', contents: 'héllo\n' });
    expect(server.requests[0]!.url).toBe('/api/v3/repos/acme/webapp/contents/src%2Fapp.ts?ref=main');
  });

  it('reads a missing file as empty', async () => {
    expect(await read({ status: 404, body: { message: 'Not Found' } })).toEqual({
      status: 'not_found',
      contents: '',
    });
  });

  it('spots binary files: NUL bytes or not UTF-8', async () => {
    expect(await read(file(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01])))).toEqual({ status: 'binary' });
    expect(await read(file(Buffer.from([0x68, 0xff, 0xfe, 0x69])))).toEqual({ status: 'binary' });
  });

  it('treats GitHub’s content-less large files, its 403 too_large and anything over 1 MB as too large', async () => {
    const big = { size: 5 * 1024 * 1024, encoding: 'none', content: '' };
    expect(await read(file(Buffer.from(''), big))).toEqual({ status: 'too_large' });
    expect(
      await read({
        status: 403,
        body: { message: 'This API returns blobs up to 100 MB in size.', errors: [{ code: 'too_large' }] },
      }),
    ).toEqual({ status: 'too_large' });
    expect(await read(file(Buffer.alloc(MAX_FILE_BYTES + 1, 0x61)))).toEqual({ status: 'too_large' });
  });

  it('reports other failures with their status, after the usual retries', async () => {
    expect(await read({ status: 403, body: { message: 'Resource not accessible by integration' } })).toEqual({
      status: 'error',
      message: expect.stringContaining('Resource not accessible by integration'),
      httpStatus: 403,
    });
    expect(server.requests).toHaveLength(1);
    expect(await read({ status: 503, body: { message: 'unavailable' } })).toMatchObject({
      status: 'error',
      httpStatus: 503,
    });
    expect(server.requests).toHaveLength(4);
    expect(await read({ status: 200, body: [{ type: 'file', name: 'a' }] })).toEqual({
      status: 'error',
      message: 'src/app.ts is a directory',
    });
  });
});

describe('pull requests, commits, issues', () => {
  it('summarises a pull request', async () => {
    server.answer({
      status: 200,
      body: {
        number: 7,
        title: 'Add login',
        body: null,
        head: { ref: 'feature/login', sha: 'h1' },
        base: { ref: 'main', sha: 'b1' },
        commits: 3,
        merge_commit_sha: 'm1',
        mergeable: null,
      },
    });
    expect(await getPullSummary(octokit(), { ...repo, number: 7 })).toEqual({
      title: 'Add login',
      body: '',
      headBranch: 'feature/login',
      baseBranch: 'main',
      baseSha: 'b1',
      commits: 3,
      mergeCommitSha: 'm1',
      mergeable: null,
    });
    expect(server.requests[0]!.url).toBe('/api/v3/repos/acme/webapp/pulls/7');
  });

  it('lists all pages of a pull request’s commits with an empty If-None-Match', async () => {
    const commit = (sha: string, message: string) => ({ sha, commit: { message } });
    server.route((req) =>
      req.url.includes('page=2')
        ? { status: 200, body: [commit('c3', 'Third')] }
        : {
            status: 200,
            body: [commit('c1', 'First line\n\nbody'), commit('c2', 'Second')],
            headers: {
              link: `<${server.url}/api/v3/repos/acme/webapp/pulls/7/commits?per_page=100&page=2>; rel="next"`,
            },
          },
    );
    expect(await listPullCommits(octokit(), { ...repo, number: 7 })).toEqual([
      { title: 'First line', sha: 'c1' },
      { title: 'Second', sha: 'c2' },
      { title: 'Third', sha: 'c3' },
    ]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.headers['if-none-match']).toBe('');
  });

  it('summarises a commit and its files', async () => {
    const files = [
      { filename: 'a.ts', status: 'added', additions: 3, deletions: 0 },
      { filename: 'b.ts', status: 'removed', additions: 0, deletions: 9 },
      { filename: 'c.ts', previous_filename: 'old-c.ts', status: 'renamed', additions: 1, deletions: 1 },
      { filename: 'd.ts', status: 'modified', additions: 2, deletions: 2 },
      { filename: 'e.ts', status: 'changed', additions: 0, deletions: 0 },
      { filename: 'f.ts', previous_filename: 'a.ts', status: 'copied', additions: 0, deletions: 0 },
    ];
    server.answer({ status: 200, body: { sha: 'abc', commit: { message: 'Fix bug\n\nDetails' }, files } });
    expect(await getCommit(octokit(), { ...repo, ref: 'main' })).toEqual({ title: 'Fix bug', sha: 'abc' });
    expect(await getCommitDiffs(octokit(), { ...repo, ref: 'abc' })).toEqual([
      { filename: 'a.ts', previousFilename: null, status: 'added', additions: 3, deletions: 0 },
      { filename: 'b.ts', previousFilename: null, status: 'removed', additions: 0, deletions: 9 },
      { filename: 'c.ts', previousFilename: 'old-c.ts', status: 'renamed', additions: 1, deletions: 1 },
      { filename: 'd.ts', previousFilename: null, status: 'modified', additions: 2, deletions: 2 },
      { filename: 'e.ts', previousFilename: null, status: 'modified', additions: 0, deletions: 0 },
      { filename: 'f.ts', previousFilename: 'a.ts', status: 'added', additions: 0, deletions: 0 },
    ]);
  });

  it('compares base...head', async () => {
    server.answer({
      status: 200,
      body: {
        base_commit: { sha: 'base1' },
        merge_base_commit: { sha: 'mb1' },
        ahead_by: 2,
        behind_by: 1,
        commits: [
          { sha: 'c1', commit: { message: 'One' } },
          { sha: 'c2', commit: { message: 'Two\nmore' } },
        ],
        files: [
          { filename: 'a', additions: 5, deletions: 1 },
          { filename: 'b', additions: 2, deletions: 3 },
        ],
      },
    });
    expect(await compareBranches(octokit(), { ...repo, base: 'main', head: 'feature/x' })).toEqual({
      baseCommit: 'base1',
      commits: [
        { title: 'One', sha: 'c1' },
        { title: 'Two', sha: 'c2' },
      ],
      aheadBy: 2,
      behindBy: 1,
      filesChanged: 2,
      totalAdditions: 7,
      totalDeletions: 4,
    });
    expect(decodeURIComponent(server.requests[0]!.url)).toBe(
      '/api/v3/repos/acme/webapp/compare/main...feature/x',
    );
  });

  it('finds the pull requests of a commit, an issue, the default branch', async () => {
    server.answer({ status: 200, body: [{ number: 4 }, { number: 9 }] });
    expect(await pullsForCommit(octokit(), { ...repo, sha: 'abc' })).toEqual([4, 9]);
    server.answer({ status: 200, body: { title: 'Crash', body: 'Steps', comments: 5 } });
    expect(await getIssueSummary(octokit(), { ...repo, number: 3 })).toEqual({
      title: 'Crash',
      body: 'Steps',
      comments: 5,
    });
    server.answer({ status: 200, body: { default_branch: 'trunk' } });
    expect(await getDefaultBranch(octokit(), repo)).toBe('trunk');
  });
});
