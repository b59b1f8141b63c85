import { lstat, readFile, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { SandboxKind } from './detect.js';
import { runCommand } from './exec.js';
import type { Scrubber } from './scrub.js';

export interface ScriptRun {
  path: string;
  exists: boolean;
  statusCode: number | null;
  output: string;
  durationMs: number;
  startedAt: string;
  contents: string;
}

const MAX_CONTENTS_CHARS = 256 * 1024;

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith('../') && !isAbsolute(rel);
}

/**
 * The script file, or null when absent. A symlink resolving outside the workspace counts as absent:
 * its contents are read on the host and shown to users, so it must not reach e.g. the server's data.
 */
async function locate(dir: string, relativePath: string): Promise<string | null> {
  const path = resolve(dir, relativePath);
  if (!inside(dir, path)) throw new Error(`script path ${relativePath} is outside the workspace`);
  const stat = await lstat(path).catch(() => null);
  if (!stat) return null;
  const real = await realpath(path).catch(() => null);
  const realRoot = await realpath(dir);
  if (!real || !inside(realRoot, real)) return null;
  return (await lstat(real)).isFile() ? path : null;
}

/**
 * Runs a repository script such as .tandem/setup.sh with bash in the sandbox. Missing scripts are
 * not an error: exists is false and statusCode null.
 */
export async function runRepoScript(
  ws: { dir: string },
  relativePath: string,
  options: { env?: Record<string, string>; timeoutMs: number; kind?: SandboxKind; scrub?: Scrubber },
): Promise<ScriptRun> {
  const startedAt = new Date();
  const scrub = options.scrub ?? ((text: string) => text);
  const path = await locate(ws.dir, relativePath);
  if (!path) {
    return {
      path: relativePath,
      exists: false,
      statusCode: null,
      output: '',
      durationMs: 0,
      startedAt: startedAt.toISOString(),
      contents: '',
    };
  }
  const contents = (await readFile(path, 'utf8')).slice(0, MAX_CONTENTS_CHARS);
  const run = await runCommand({
    command: `bash ${quote(path)}`,
    cwd: ws.dir,
    workspace: ws.dir,
    env: options.env ?? {},
    timeoutMs: options.timeoutMs,
    ...(options.kind ? { kind: options.kind } : {}),
  });
  let output = run.output;
  if (run.truncated) output += '\n[output truncated]';
  if (run.timedOut) output += `\n[timed out after ${Math.round(options.timeoutMs / 1000)} s]`;
  return {
    path: relativePath,
    exists: true,
    statusCode: run.exitCode,
    output: scrub(output),
    durationMs: run.durationMs,
    startedAt: startedAt.toISOString(),
    contents,
  };
}
