import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitFiles } from '../git/repo-files.js';
import { git, gitText } from '../git/run-git.js';
import { startCodeHost, type CodeHostOptions, type RunningCodeHost } from '../index.js';
import { startWebhookReceiver } from './webhook-receiver.js';

export interface PagesHarness {
  host: RunningCodeHost;
  receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  dataDir: string;
  /** Signs a browser in through /session; the cookie header to send. */
  signIn(login: string): Promise<string>;
  get(path: string, cookie?: string): Promise<{ status: number; text: string; headers: Headers }>;
  /** A form post as a browser sends it (with this host's Origin unless `origin` says otherwise). */
  post(
    path: string,
    fields: Record<string, string>,
    options?: { cookie?: string; origin?: string | null },
  ): Promise<{ status: number; text: string; location: string | null }>;
  /** A GET whose path is sent byte for byte (fetch would resolve `..` segments itself). */
  rawGet(path: string, cookie?: string): Promise<number>;
  /** Commits files on a branch (new ones start at main) of a seeded repository, into its bare repository. */
  commit(repo: string, branch: string, files: Record<string, string>, message: string): Promise<string>;
  /** Appends `count` empty commits ("Step 0"…) to a new branch from main, quickly; the last sha. */
  chain(repo: string, branch: string, count: number): Promise<string>;
  close(): Promise<void>;
}

/** A seeded code host with a webhook receiver, for the HTML pages' tests. */
export async function startPagesHarness(options: Pick<CodeHostOptions, 'ci'> = {}): Promise<PagesHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'codehost-pages-'));
  const receiver = await startWebhookReceiver();
  const host = await startCodeHost({
    dataDir,
    port: 0,
    webhookUrl: receiver.url,
    webhookRetryDelaysMs: [10],
    ...options,
  });
  const origin = new URL(host.url).origin;
  return {
    host,
    receiver,
    dataDir,
    async signIn(login) {
      const res = await fetch(`${host.url}/session`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body: new URLSearchParams({ login }),
      });
      return res.headers.get('set-cookie')!.split(';')[0]!;
    },
    async get(path, cookie) {
      const res = await fetch(`${host.url}${path}`, {
        redirect: 'manual',
        headers: cookie ? { cookie } : {},
      });
      return { status: res.status, text: await res.text(), headers: res.headers };
    },
    async post(path, fields, options = {}) {
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
      if (options.cookie) headers.cookie = options.cookie;
      const sentOrigin = options.origin === undefined ? origin : options.origin;
      if (sentOrigin !== null) headers.origin = sentOrigin;
      const res = await fetch(`${host.url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers,
        body: new URLSearchParams(fields),
      });
      return { status: res.status, text: await res.text(), location: res.headers.get('location') };
    },
    rawGet(path, cookie) {
      const url = new URL(host.url);
      return new Promise((resolve, reject) => {
        const req = httpRequest(
          { host: url.hostname, port: url.port, path, headers: cookie ? { cookie } : {} },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end();
      });
    },
    async commit(repo, branch, files, message) {
      const [owner = '', name = ''] = repo.split('/');
      const bare = join(dataDir, 'repos', owner, `${name}.git`);
      // New branches start from main, as a pushed feature branch would.
      await git(['branch', branch, 'main'], { cwd: bare });
      return commitFiles(bare, branch, files, message);
    },
    async chain(repo, branch, count) {
      const [owner = '', name = ''] = repo.split('/');
      const bare = join(dataDir, 'repos', owner, `${name}.git`);
      let sha = (await gitText(['rev-parse', 'main'], { cwd: bare })).trim();
      const tree = (await gitText(['rev-parse', 'main^{tree}'], { cwd: bare })).trim();
      for (let i = 0; i < count; i++)
        sha = (await gitText(['commit-tree', tree, '-p', sha, '-m', `Step ${i}`], { cwd: bare })).trim();
      await gitText(['update-ref', `refs/heads/${branch}`, sha], { cwd: bare });
      return sha;
    },
    async close() {
      await host.close();
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
