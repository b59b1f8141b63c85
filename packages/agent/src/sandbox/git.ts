import { launch } from '@tandem/process';
import { signalProcess } from './process-tree.js';

/** Sent as HTTP basic auth (user 'x-access-token'); never written to .git/config or a remote URL. */
export interface GitAuth {
  token: string;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const DEFAULT_GIT_TIMEOUT_MS = 10 * 60_000;

export function authHeader(auth: GitAuth): string {
  return `Authorization: Basic ${Buffer.from(`x-access-token:${auth.token}`).toString('base64')}`;
}

/**
 * Config forced on every host-side git call. The workspace's .git is writable by sandboxed code, so
 * its config and hooks are untrusted here: no hooks, no fsmonitor command, no credential helpers,
 * no ext:: transport (each would run repository-chosen commands on the host with server privileges).
 * The empty extraHeader resets any header list from lower-priority config before ours is added.
 */
function hardening(auth?: GitAuth): string[] {
  const config = [
    'core.hooksPath=/dev/null',
    'core.fsmonitor=false',
    'credential.helper=',
    'protocol.ext.allow=never',
    'http.extraHeader=',
  ];
  if (auth) config.push(`http.extraHeader=${authHeader(auth)}`);
  return config.flatMap((entry) => ['-c', entry]);
}

/**
 * Runs git asynchronously (a synchronous call would deadlock against a git HTTP server living in the
 * same process). Never rejects for git failures: callers look at exitCode (-1 when killed).
 */
export function git(
  dir: string,
  args: string[],
  options: { auth?: GitAuth; timeoutMs?: number } = {},
): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    // Through the launcher: a fork of the server itself would block its event loop (@tandem/process).
    const child = launch('git', [...hardening(options.auth), ...args], {
      cwd: dir,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Own process group so a timeout also stops git-remote-https and other helpers.
      detached: true,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    let timedOut = false;
    const timeoutMs = options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) signalProcess(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code: number | null) => {
      clearTimeout(timer);
      let err = Buffer.concat(stderr).toString('utf8');
      if (timedOut) err += `\ngit ${args[0] ?? ''} timed out after ${timeoutMs} ms`;
      resolve({ stdout: Buffer.concat(stdout).toString('utf8'), stderr: err, exitCode: code ?? -1 });
    });
  });
}

/** Like git() but throws with git's message on a non-zero exit; returns trimmed stdout. */
export async function mustGit(
  dir: string,
  args: string[],
  options: { auth?: GitAuth } = {},
): Promise<string> {
  const result = await git(dir, args, options);
  if (result.exitCode !== 0) {
    throw new Error(`git ${args.join(' ')} failed (${result.exitCode}): ${result.stderr.trim()}`);
  }
  return result.stdout.trim();
}
