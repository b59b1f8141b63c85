import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitText } from '../git/run-git.js';

export interface JobWorkspace {
  /** The temp directory the sandbox binds: the checkout and the job's HOME live in it. */
  root: string;
  /** The checkout of the commit (GITHUB_WORKSPACE). */
  checkout: string;
  remove(): Promise<void>;
}

/**
 * A fresh checkout of one commit for one job. Host-side git only reads the code host's own bare
 * repository, with no system or global configuration (no filters or hooks a host config might
 * name), and copies objects instead of hard-linking them: the job may write anything in its
 * workspace, and a hard link would let it rewrite the bare repository's objects.
 */
export async function checkoutCommit(bare: string, sha: string): Promise<JobWorkspace> {
  const root = await mkdtemp(join(tmpdir(), 'codehost-ci-'));
  const checkout = join(root, 'work');
  const env = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  const remove = () => rm(root, { recursive: true, force: true });
  try {
    await mkdir(checkout);
    await gitText(['clone', '--quiet', '--no-hardlinks', '--no-checkout', bare, checkout], { env });
    await gitText(['-c', 'advice.detachedHead=false', 'checkout', '--quiet', '--detach', sha], {
      cwd: checkout,
      env,
    });
  } catch (error) {
    await remove();
    throw error;
  }
  return { root, checkout, remove };
}
