import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient } from '../client.js';
import { branchEntrySchema, scriptListsSchema } from '../schemas.js';
import { graphqlBody, startScriptedServer, type ScriptedServer } from '../testing/scripted-server.js';
import { listBranches } from './branches.js';
import { listScripts } from './scripts.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

const octokit = () =>
  createGitHubClient({ baseUrl: `${server.url}/api/v3`, auth: 't', throttle: false, retryDelayScale: 0.001 });
const repo = { owner: 'acme', repo: 'webapp' };

describe('listBranches', () => {
  const node = (name: string, committedDate: string) => ({ name, target: { committedDate } });
  const pages: Record<string, { nodes: unknown[]; pageInfo: { hasNextPage: boolean; endCursor: string } }> = {
    first: {
      nodes: [node('feature', '2026-11-03T00:00:00Z'), node('main', '2026-11-02T00:00:00Z')],
      pageInfo: { hasNextPage: true, endCursor: 'c1' },
    },
    c1: {
      nodes: [node('fix', '2026-10-01T00:00:00Z'), node('tag-like', '2026-09-01T00:00:00Z')],
      pageInfo: { hasNextPage: true, endCursor: 'c2' },
    },
    c2: { nodes: [node('old', '2026-01-01T00:00:00Z')], pageInfo: { hasNextPage: false, endCursor: 'c3' } },
  };

  it('pages through every branch, 100 a page, newest first', async () => {
    server.route((req) => {
      const cursor = graphqlBody(req).variables.cursor as string | null;
      return { status: 200, body: { data: { repository: { refs: pages[cursor ?? 'first'] } } } };
    });
    const branches = await listBranches(octokit(), repo);
    expect(branches.map((b) => b.name)).toEqual(['feature', 'main', 'fix', 'tag-like', 'old']);
    branches.forEach((b) => branchEntrySchema.parse(b));
    expect(branches[0]).toEqual({ name: 'feature', committedDate: '2026-11-03T00:00:00Z' });

    expect(server.requests.map((r) => r.url)).toEqual(['/api/graphql', '/api/graphql', '/api/graphql']);
    const bodies = server.requests.map(graphqlBody);
    expect(bodies.map((b) => b.variables)).toEqual([
      { owner: 'acme', name: 'webapp', cursor: null },
      { owner: 'acme', name: 'webapp', cursor: 'c1' },
      { owner: 'acme', name: 'webapp', cursor: 'c2' },
    ]);
    expect(bodies[0]!.query).toContain('refs(refPrefix: "refs/heads/", first: 100, after: $cursor');
    expect(bodies[0]!.query).toContain('orderBy: {field: TAG_COMMIT_DATE, direction: DESC}');
  });

  it('keeps newest first even when a host orders pages loosely', async () => {
    server.answer({
      status: 200,
      body: {
        data: {
          repository: {
            refs: {
              nodes: [
                node('b', '2026-01-01T00:00:00Z'),
                { name: 'odd', target: null },
                node('a', '2026-05-01T00:00:00Z'),
              ],
              pageInfo: { hasNextPage: false, endCursor: null },
            },
          },
        },
      },
    });
    expect(await listBranches(octokit(), repo)).toEqual([
      { name: 'a', committedDate: '2026-05-01T00:00:00Z' },
      { name: 'b', committedDate: '2026-01-01T00:00:00Z' },
      { name: 'odd', committedDate: null },
    ]);
  });

  it('stops when a host repeats a cursor, and reads a hidden repository as branchless', async () => {
    server.answer({
      status: 200,
      body: {
        data: {
          repository: {
            refs: {
              nodes: [node('x', '2026-01-01T00:00:00Z')],
              pageInfo: { hasNextPage: true, endCursor: 'same' },
            },
          },
        },
      },
    });
    expect(await listBranches(octokit(), repo)).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
    server.answer({ status: 200, body: { data: { repository: null } } });
    expect(await listBranches(octokit(), repo)).toEqual([]);
  });
});

describe('listScripts', () => {
  const tree = (...entries: [string, string][]) => ({
    entries: entries.map(([name, type]) => ({ name, type })),
  });

  it('lists the .sh files directly in each folder; a folder that fails lists nothing', async () => {
    server.answer({
      status: 200,
      body: {
        data: {
          repository: {
            run: tree(['test.sh', 'blob'], ['notes.md', 'blob'], ['auto', 'tree'], ['build.sh', 'blob']),
            auto: null,
            preview: tree(['dev.sh', 'blob'], ['nested.sh', 'tree']),
          },
        },
        errors: [{ path: ['repository', 'auto'], message: 'Could not resolve to a tree' }],
      },
    });
    const scripts = await listScripts(octokit(), { ...repo, ref: 'feature/x' });
    expect(scriptListsSchema.parse(scripts)).toEqual({
      run: ['.tandem/run/build.sh', '.tandem/run/test.sh'],
      auto: [],
      preview: ['.tandem/preview/dev.sh'],
    });
    expect(server.requests).toHaveLength(1);
    expect(graphqlBody(server.requests[0]!).variables).toEqual({
      owner: 'acme',
      name: 'webapp',
      run: 'feature/x:.tandem/run',
      auto: 'feature/x:.tandem/run/auto',
      preview: 'feature/x:.tandem/preview',
    });
  });

  it('lists nothing anywhere when the whole query fails', async () => {
    server.answer({ status: 502, body: { message: 'Bad gateway' } });
    expect(await listScripts(octokit(), { ...repo, ref: 'main' })).toEqual({
      run: [],
      auto: [],
      preview: [],
    });
    expect(server.requests).toHaveLength(4);
    server.answer({ status: 200, body: { data: { repository: { run: null, auto: null, preview: null } } } });
    expect(await listScripts(octokit(), { ...repo, ref: 'main' })).toEqual({
      run: [],
      auto: [],
      preview: [],
    });
  });
});
