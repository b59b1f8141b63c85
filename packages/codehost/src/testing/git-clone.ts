import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { git, gitText } from '../git/run-git.js';

export interface Clone {
  dir: string;
  /** Writes files, commits them and pushes the branch; the push's exit code and output. */
  commitAndPush(
    branch: string,
    files: Record<string, string>,
    message: string,
  ): Promise<{ code: number; output: string; sha: string }>;
  remove(): Promise<void>;
}

/** A real clone over the code host's smart HTTP, authenticated with `token` (as agents and people push). */
export async function cloneOverHttp(hostUrl: string, repo: string, token: string): Promise<Clone> {
  const root = await mkdtemp(join(tmpdir(), 'codehost-clone-'));
  const dir = join(root, 'repo');
  const url = `${hostUrl.replace('://', `://x-access-token:${token}@`)}/${repo}.git`;
  // No host configuration (credential helpers, hooks) may take part.
  const env = { GIT_CONFIG_GLOBAL: '/dev/null' };
  await gitText(['clone', '--quiet', url, dir], { env });
  return {
    dir,
    async commitAndPush(branch, files, message) {
      await gitText(['checkout', '--quiet', '-B', branch], { cwd: dir, env });
      for (const [path, content] of Object.entries(files)) {
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await writeFile(join(dir, path), content);
      }
      await gitText(['add', '-A'], { cwd: dir, env });
      await gitText(['commit', '--quiet', '-m', message], { cwd: dir, env });
      const sha = (await gitText(['rev-parse', 'HEAD'], { cwd: dir, env })).trim();
      const push = await git(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`], { cwd: dir, env });
      return { code: push.code, output: push.stdout.toString() + push.stderr, sha };
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
