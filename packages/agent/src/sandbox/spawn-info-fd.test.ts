import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findProgram } from './bwrap.js';
import { runCommand } from './exec.js';
import { findSlirp } from './slirp.js';
import { sandboxKindCases, tempDir } from './test-support.js';

/**
 * Stands in for bwrap on PATH: reports the sandbox's pid on --info-fd as bwrap does, in more than
 * one write (bwrap writes the pid, then each namespace's id, then the closing brace), with a pause
 * between them as a busy machine may make. Then it waits for --block-fd as bwrap does and runs the
 * command without a sandbox. A reader that closed the info pipe after the pid kills it with SIGPIPE.
 */
const FAKE_BWRAP = `#!/bin/bash
while [ $# -gt 0 ] && [ "$1" != "--block-fd" ]; do shift; done
shift 2
printf '{\\n    "child-pid": %d' $$ >&3
sleep 0.5
printf ',\\n    "net-namespace": 4026531840\\n}\\n' >&3
exec 3>&-
read -r -n 1 _ <&4
exec 4<&-
exec "$@"
`;

const { support } = await sandboxKindCases();
const skip =
  support.kind !== 'bubblewrap'
    ? support.detail
    : !findSlirp() || !findProgram('unshare')
      ? 'slirp4netns or unshare is missing'
      : null;

describe.skipIf(skip !== null)(
  skip ? `a command's own network (skipped: ${skip})` : "a command's own network",
  () => {
    let root: string;
    let cleanup: () => Promise<void>;
    let path: string | undefined;

    beforeEach(async () => {
      ({ dir: root, cleanup } = await tempDir());
      await mkdir(join(root, 'bin'));
      await writeFile(join(root, 'bin', 'bwrap'), FAKE_BWRAP);
      await chmod(join(root, 'bin', 'bwrap'), 0o755);
      await mkdir(join(root, 'ws'));
      path = process.env.PATH;
      process.env.PATH = `${join(root, 'bin')}:${path ?? ''}`;
    });
    afterEach(async () => {
      process.env.PATH = path;
      await cleanup();
    });

    it("reads bwrap's whole report before the command starts, however slowly it comes", async () => {
      // A format script once "failed" with no output and no exit code in CI: bwrap, killed by
      // SIGPIPE while still reporting, because the report's pipe was closed after the pid.
      const run = await runCommand({
        command: 'echo formatted',
        cwd: join(root, 'ws'),
        workspace: join(root, 'ws'),
        timeoutMs: 20_000,
        kind: 'bubblewrap',
        network: true,
      });
      expect({ exitCode: run.exitCode, signal: run.signal, output: run.output.trim() }).toEqual({
        exitCode: 0,
        signal: null,
        output: 'formatted',
      });
    });
  },
);
