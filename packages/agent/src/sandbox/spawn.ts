import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { bwrapArgs, findBwrap, nodePrefix } from './bwrap.js';
import type { SandboxKind } from './detect.js';

const BASE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The complete environment of a sandboxed command. Built from scratch so nothing of the server's own
 * process.env (database URL, API keys) reaches repository code; `extra` (the repository's secrets)
 * wins over the defaults.
 */
export function sandboxEnv(extra: Record<string, string> = {}, workspace?: string): Record<string, string> {
  let home = tmpdir();
  if (workspace) {
    home = join(workspace, '.home');
    mkdirSync(home, { recursive: true });
  }
  const prefix = nodePrefix();
  const env: Record<string, string> = {
    PATH: prefix ? `${BASE_PATH}:${join(prefix, 'bin')}` : BASE_PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    CI: '1',
    npm_config_update_notifier: 'false',
  };
  for (const [key, value] of Object.entries(extra)) {
    // Names with '=' or NULs cannot be represented in an environment block; spawn would throw.
    if (!key || key.includes('=') || key.includes('\0') || value.includes('\0')) continue;
    env[key] = value;
  }
  return env;
}

export interface SpawnSpec {
  command: string;
  cwd: string;
  workspace: string;
  env?: Record<string, string>;
  network?: boolean;
  kind: SandboxKind;
  /** Host paths bound read-only at the same path (bubblewrap only). */
  readOnlyBinds?: readonly string[];
}

function assertInsideWorkspace(cwd: string, workspace: string): void {
  if (!isAbsolute(cwd) || !isAbsolute(workspace)) {
    throw new Error(`cwd and workspace must be absolute paths (got ${cwd}, ${workspace})`);
  }
  const rel = relative(workspace, cwd);
  if (rel.startsWith('..') || isAbsolute(rel))
    throw new Error(`cwd ${cwd} is outside workspace ${workspace}`);
  // Checked here because spawn reports a missing cwd as a confusing "spawn bash ENOENT".
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`cwd ${cwd} is not a directory`);
}

/**
 * Starts `bash -c command` in its own process group (detached) so the whole tree can be signalled.
 * stdin stays a pipe; stdout and stderr are separate pipes the caller interleaves.
 */
export function spawnSandboxed(spec: SpawnSpec): ChildProcessWithoutNullStreams {
  assertInsideWorkspace(spec.cwd, spec.workspace);
  const env = sandboxEnv(spec.env, spec.workspace);
  const options = { cwd: spec.cwd, env, detached: true, stdio: 'pipe' as const };
  if (spec.kind === 'process') return spawn('bash', ['-c', spec.command], options);
  const bwrap = findBwrap();
  if (!bwrap) throw new Error('bubblewrap sandbox requested but bwrap is not on PATH');
  const args = bwrapArgs({
    workspace: spec.workspace,
    cwd: spec.cwd,
    network: spec.network ?? true,
    env,
    ...(spec.readOnlyBinds ? { readOnlyBinds: spec.readOnlyBinds } : {}),
  });
  return spawn(bwrap, [...args, 'bash', '-c', spec.command], options);
}
