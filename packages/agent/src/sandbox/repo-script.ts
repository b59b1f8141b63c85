import { isAbsolute, relative, resolve } from 'node:path';
import type { SandboxKind } from './detect.js';
import { runCommand } from './exec.js';
import { readInside, WorkspacePathError } from './safe-fs.js';
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

export const MAX_CONTENTS_CHARS = 256 * 1024;
/** Larger scripts still run; only their shown contents are cut. */
const MAX_READ_BYTES = 8 * 1024 * 1024;

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The script's contents, or null when absent. Read through safe-fs: the file is shown to users and
 * read with the server's privileges, so a link (or a hard link) to e.g. the server's data counts as
 * absent rather than being followed.
 */
export async function readRepoScript(dir: string, relativePath: string): Promise<string | null> {
  if (!inside(dir, resolve(dir, relativePath)))
    throw new Error(`script path ${relativePath} is outside the workspace`);
  try {
    const entry = await readInside(dir, relative(dir, resolve(dir, relativePath)), {
      maxBytes: MAX_READ_BYTES,
    });
    return entry.kind === 'file' ? entry.bytes.toString('utf8') : null;
  } catch (error) {
    if (error instanceof WorkspacePathError) return null;
    throw error;
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith('../') && !isAbsolute(rel);
}

/**
 * Runs a repository script such as .tandem/setup.sh with bash in the sandbox. Missing scripts are
 * not an error: exists is false and statusCode null.
 */
export async function runRepoScript(
  ws: { dir: string },
  relativePath: string,
  options: {
    env?: Record<string, string>;
    timeoutMs: number;
    kind?: SandboxKind;
    scrub?: Scrubber;
    /** Default true; TANDEM_SANDBOX_NETWORK=off passes false. */
    network?: boolean;
  },
): Promise<ScriptRun> {
  const startedAt = new Date();
  const scrub = options.scrub ?? ((text: string) => text);
  const text = await readRepoScript(ws.dir, relativePath);
  if (text === null) {
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
  const contents = text.slice(0, MAX_CONTENTS_CHARS);
  const path = resolve(ws.dir, relativePath);
  const run = await runCommand({
    command: `bash ${quote(path)}`,
    cwd: ws.dir,
    workspace: ws.dir,
    env: options.env ?? {},
    timeoutMs: options.timeoutMs,
    network: options.network ?? true,
    ...(options.kind ? { kind: options.kind } : {}),
  });
  let output = run.output;
  if (run.truncated) output += '\n[output truncated]';
  if (run.timedOut) output += `\n[timed out after ${Math.round(options.timeoutMs / 1000)} s]`;
  // Killed otherwise: the log has no exit code to show, so it says what ended the script.
  else if (run.signal) output += `\n[ended by ${run.signal}]`;
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
