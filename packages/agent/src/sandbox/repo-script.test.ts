import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectSandbox } from './detect.js';
import { runRepoScript } from './repo-script.js';
import { tempDir } from './test-support.js';

const support = await detectSandbox();

let ws: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir: ws, cleanup } = await tempDir('tandem-repo-script-'));
  await mkdir(join(ws, '.tandem'));
});
afterEach(() => cleanup());

describe('runRepoScript', () => {
  it.skipIf(support.kind !== 'bubblewrap')(
    'honours the network switch (TANDEM_SANDBOX_NETWORK=off gives setup scripts no interface)',
    async () => {
      await writeFile(
        join(ws, '.tandem', 'setup.sh'),
        "sed -n 's/^ *\\([a-z0-9]*\\):.*/\\1/p' /proc/net/dev\n",
      );
      const off = await runRepoScript({ dir: ws }, '.tandem/setup.sh', { timeoutMs: 30_000, network: false });
      expect(off.statusCode).toBe(0);
      expect(off.output.split(/\s+/).filter(Boolean)).toEqual(['lo']);
    },
  );

  it('says what ended a script killed by a signal, which has no exit code to show', async () => {
    // Without a sandbox the script is the process the runner waits for (under bubblewrap, bwrap is,
    // and a script killed inside reports 137 through it: the case here is bwrap itself killed).
    await writeFile(join(ws, '.tandem', 'format.sh'), 'echo started\nkill -KILL $$\n');
    const run = await runRepoScript({ dir: ws }, '.tandem/format.sh', { timeoutMs: 30_000, kind: 'process' });
    expect(run.statusCode).toBeNull();
    expect(run.output).toBe('started\n\n[ended by SIGKILL]');
  });

  it('treats a script that links outside the workspace as absent, showing nothing of the target', async () => {
    const { symlink } = await import('node:fs/promises');
    await symlink('/etc/passwd', join(ws, '.tandem', 'format.sh'));
    const run = await runRepoScript({ dir: ws }, '.tandem/format.sh', { timeoutMs: 30_000 });
    expect(run).toMatchObject({ exists: false, contents: '', output: '' });
  });
});
