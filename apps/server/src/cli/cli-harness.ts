import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { cliTokenResponseSchema } from '@tandem/shared';
import type { TestApp, TestUser } from '../testing/test-app.js';

/** Runs the BUILT `tandem` CLI (apps/cli/dist/main.js) as a child process, as a user would. */

const root = fileURLToPath(new URL('../../../../', import.meta.url));
export const CLI_MAIN = join(root, 'apps/cli/dist/main.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** The fake home: config lands in its .config/tandem (XDG_CONFIG_HOME is set there). */
  home: string;
  env?: Record<string, string>;
  /** Written to stdin, then closed; without it stdin is empty (not a terminal). */
  input?: string;
  cwd?: string;
  timeoutMs?: number;
}

/**
 * A clean environment: the developer's own TANDEM_TOKEN, TANDEM_URL or config never leak into a
 * test, and NO_COLOR keeps output plain (the tmux test checks colours on a real terminal).
 */
export function cliEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    NO_COLOR: '1',
    GIT_CONFIG_NOSYSTEM: '1',
    ...extra,
  };
}

export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  if (!existsSync(CLI_MAIN)) throw new Error(`${CLI_MAIN} is missing: build first (npx tsc -b)`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], {
      cwd: options.cwd ?? options.home,
      env: cliEnv(options.home, options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tandem ${args.join(' ')} timed out\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Makes the in-process test app listen on 127.0.0.1 so a child process can reach it; returns its URL. */
export async function listen(app: TestApp): Promise<string> {
  if (!app.server.server.listening) await app.server.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** A CLI token as the /cli-auth-success page gets one: POST /api/auth/cli-token as the user. */
export async function cliTokenFor(app: TestApp, user: TestUser): Promise<string> {
  const res = await app.server.inject({
    method: 'POST',
    url: '/api/auth/cli-token',
    headers: { authorization: `Bearer ${user.token}` },
  });
  return cliTokenResponseSchema.parse(res.json()).token;
}

/** The CLI tests' server: ada, admin of acme with acme/webapp, and the app listening. */
export async function startCliServer(app: TestApp): Promise<{ ada: TestUser; url: string }> {
  const ada = await app.signIn({
    username: 'ada',
    installations: [{ id: 1000, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
  });
  return { ada, url: await listen(app) };
}
