import { launch } from '@tandem/process';

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

const GIT_ENV = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Tandem Code Host',
  GIT_AUTHOR_EMAIL: 'codehost@tandem.local',
  GIT_COMMITTER_NAME: 'Tandem Code Host',
  GIT_COMMITTER_EMAIL: 'codehost@tandem.local',
};

/**
 * Runs git asynchronously. Never the *Sync variants: this process also serves `git http-backend`
 * to git clients, and a synchronous child blocks the event loop those transfers need. Started
 * through the launcher (@tandem/process) for the same reason: the code host may share its process
 * with the product's server, and a fork of that server blocks the event loop for milliseconds.
 */
export function git(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; input?: Buffer } = {},
) {
  return new Promise<GitResult>((resolve, reject) => {
    const child = launch('git', args, {
      cwd: options.cwd,
      env: { ...process.env, ...GIT_ENV, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code: number | null) =>
      resolve({ stdout: Buffer.concat(out), stderr: err, code: code ?? 1 }),
    );
    child.stdin?.end(options.input);
  });
}

/** git that must succeed; its stdout as text. */
export async function gitText(args: string[], options: Parameters<typeof git>[1] = {}): Promise<string> {
  const result = await git(args, options);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout.toString('utf8');
}
