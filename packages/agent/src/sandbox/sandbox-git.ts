import { createWriteStream } from 'node:fs';
import { detectSandbox, type SandboxKind } from './detect.js';
import type { GitResult } from './git.js';
import { signalProcess, terminateTree } from './process-tree.js';
import { spawnSandboxed } from './spawn.js';

/** Where a workspace's git commands run: its directory, and the sandbox kind of the server. */
export interface GitWorkspace {
  dir: string;
  kind?: SandboxKind;
}

export interface SandboxGitOptions {
  timeoutMs?: number;
  /** Host paths the command may read (the host-owned mirror during a fetch). */
  readOnlyBinds?: readonly string[];
  /** Stdout goes to this host file instead of memory (bundles). */
  stdoutFile?: string;
  /** In-memory stdout beyond this is dropped (default 32 MiB): a hostile repository can print forever. */
  maxStdoutBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_MAX_STDOUT = 32 * 1024 * 1024;
const MAX_STDERR = 64 * 1024;

/**
 * Config for git inside the sandbox. Nothing here is a security boundary (the sandbox is): it keeps the
 * tools' own commits, diffs and greps predictable whatever the agent wrote into .git/config: no hooks,
 * no signing program, no external diff or textconv, no pager, no fsmonitor daemon.
 */
const PREDICTABLE = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.pager=cat',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'log.showSignature=false',
  'diff.external=',
  // The workspace and the mirror are owned by the server's user outside and may look foreign inside.
  'safe.directory=*',
];

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs git on an agent's workspace inside its sandbox, without network and without the repository's
 * secrets. The workspace's .git is writable by the agent's commands, so its config, hooks and
 * attributes may name programs (filters, textconv, fsmonitor, gpg.program…): run on the host they
 * would execute with the server's privileges; here they run with the agent's own. Never rejects for
 * git failures: callers look at exitCode (-1 when killed).
 */
export async function sandboxGit(
  ws: GitWorkspace,
  args: readonly string[],
  options: SandboxGitOptions = {},
): Promise<GitResult> {
  return runSandboxed(ws, `exec ${gitCommand(args)}`, args[0] ?? '', options);
}

/**
 * One git command line for a sandboxed script (sandboxGitScript): `git` with the predictable config
 * and every argument quoted, so nothing in an argument is read by the shell.
 */
export function gitCommand(args: readonly string[]): string {
  const config = PREDICTABLE.flatMap((entry) => ['-c', entry]);
  return ['git', ...[...config, ...args].map(quote)].join(' ');
}

/** A quoted shell word, for scripts built around gitCommand(). */
export const shellWord = quote;

/**
 * Runs a short shell script of git commands (built with gitCommand) in one sandbox: each sandbox
 * start costs tens of milliseconds, and a fresh workspace needs about ten commands.
 */
export async function sandboxGitScript(
  ws: GitWorkspace,
  script: string,
  options: SandboxGitOptions = {},
): Promise<GitResult> {
  return runSandboxed(ws, script, 'script', options);
}

async function runSandboxed(
  ws: GitWorkspace,
  command: string,
  label: string,
  options: SandboxGitOptions,
): Promise<GitResult> {
  const kind = ws.kind ?? (await detectSandbox()).kind;
  const child = spawnSandboxed({
    command,
    cwd: ws.dir,
    workspace: ws.dir,
    env: { GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
    network: false,
    kind,
    ...(options.readOnlyBinds ? { readOnlyBinds: options.readOnlyBinds } : {}),
  });
  child.stdin.end();
  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  const maxStdout = options.maxStdoutBytes ?? DEFAULT_MAX_STDOUT;
  const fileDone = options.stdoutFile
    ? new Promise<void>((resolve, reject) => {
        const file = createWriteStream(options.stdoutFile!, { mode: 0o600 });
        file.once('error', reject);
        file.once('finish', () => resolve());
        child.stdout.pipe(file);
      })
    : null;
  if (!fileDone) {
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdoutBytes >= maxStdout) return;
      stdout.push(chunk.subarray(0, maxStdout - stdoutBytes));
      stdoutBytes += chunk.length;
    });
  }
  const stderr: Buffer[] = [];
  let stderrBytes = 0;
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderrBytes >= MAX_STDERR) return;
    stderr.push(chunk);
    stderrBytes += chunk.length;
  });

  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', reject);
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid !== undefined)
      void terminateTree(child.pid, {
        exited: exited.then(() => undefined),
        rootIsBwrap: kind === 'bubblewrap',
      });
  }, timeoutMs);
  try {
    const code = await exited;
    if (child.pid !== undefined) signalProcess(-child.pid, 'SIGKILL');
    await closed;
    if (fileDone) await fileDone;
    let err = Buffer.concat(stderr).toString('utf8');
    if (timedOut) err += `\ngit ${label} timed out after ${timeoutMs} ms`;
    return {
      stdout: Buffer.concat(stdout).toString('utf8'),
      stderr: err,
      exitCode: timedOut ? -1 : (code ?? -1),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Like sandboxGit() but throws with git's message on a non-zero exit; returns trimmed stdout. */
export async function mustSandboxGit(
  ws: GitWorkspace,
  args: readonly string[],
  options: SandboxGitOptions = {},
): Promise<string> {
  const result = await sandboxGit(ws, args, options);
  if (result.exitCode !== 0) {
    throw new Error(`git ${args.join(' ')} failed (${result.exitCode}): ${result.stderr.trim()}`);
  }
  return result.stdout.trim();
}
