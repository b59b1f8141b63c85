import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { metadata } from '../follow.js';
import { agentId, examples } from './shared.js';

interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

function git(cwd: string, args: string[], env: Record<string, string | undefined>): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    // The user's own git: their credential helpers and SSH keys fetch from the code host.
    const child = spawn('git', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error) =>
      reject(new CliError(`Could not run git: ${(error as NodeJS.ErrnoException).code ?? error.message}`)),
    );
    child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/**
 * owner/name from a remote URL in any of git's spellings: https://host/owner/name(.git),
 * git@host:owner/name.git, ssh://git@host/owner/name. Only the last two path parts count, so a
 * self-hosted code host under a sub-path works too.
 */
export function remoteRepo(url: string): string | undefined {
  const path = /^[\w.+-]+:\/\//.test(url)
    ? (() => {
        try {
          return new URL(url).pathname;
        } catch {
          return undefined;
        }
      })()
    : url.replace(/^[^:]*:/, '');
  const parts = path
    ?.replace(/\.git\/?$/, '')
    .split('/')
    .filter((part) => part && part !== '.' && part !== '..');
  if (!parts || parts.length < 2) return undefined;
  return `${parts.at(-2)}/${parts.at(-1)}`;
}

export function registerCheckout(program: Command, ctx: Context): void {
  program
    .command('checkout')
    .description("In a local clone of the agent's repository, fetch the agent's branch and check it out")
    .argument('<id>', 'agent id', agentId)
    .addHelpText('after', examples('cd ~/src/webapp && tandem checkout $ID'))
    .action(async (id: string, _options: unknown, command: Command) => {
      const agent = await metadata(ctx.client(command), id);
      const repo = agent.repo_name;
      const branch = repo
        ? agent.sources[repo]?.find((source) => source.type === 'branch' && source.branch)?.branch
        : undefined;
      if (!repo || !branch) throw new CliError(`Agent ${id} has no branch yet: it has not pushed anything`);

      const cwd = process.cwd();
      const env = { ...ctx.env, GIT_TERMINAL_PROMPT: ctx.stdin.isTTY ? undefined : '0' };
      const top = await git(cwd, ['rev-parse', '--show-toplevel'], env);
      if (top.code !== 0) throw new CliError(`Not in a git repository: run this in a clone of ${repo}`);
      const remotes = await git(cwd, ['remote', '-v'], env);
      const candidates = remotes.stdout
        .split('\n')
        .map((line) => /^(\S+)\s+(\S+)\s+\(fetch\)$/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => ({ name: m[1]!, repo: remoteRepo(m[2]!) }));
      const remote = candidates.find((c) => c.repo?.toLowerCase() === repo.toLowerCase())?.name;
      if (!remote) {
        const seen = candidates.map((c) => `${c.name} → ${c.repo ?? '?'}`).join(', ') || 'none';
        throw new CliError(`This clone is not ${repo} (remotes: ${seen}): run this in a clone of ${repo}`);
      }
      // Untracked files survive a checkout; changes to tracked files could be lost or block it.
      const status = await git(cwd, ['status', '--porcelain', '--untracked-files=no'], env);
      if (status.stdout.trim())
        throw new CliError('The working tree has uncommitted changes: commit or stash them first');

      const fetched = await git(
        cwd,
        ['fetch', remote, `+refs/heads/${branch}:refs/remotes/${remote}/${branch}`],
        env,
      );
      if (fetched.code !== 0)
        throw new CliError(`git fetch ${remote} ${branch} failed: ${lastLine(fetched.stderr)}`);
      const local = await git(cwd, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], env);
      // An existing local branch is only fast-forwarded: commits made on it locally are never dropped.
      const steps =
        local.code === 0
          ? [
              ['checkout', '--quiet', branch],
              ['merge', '--ff-only', '--quiet', `${remote}/${branch}`],
            ]
          : [['checkout', '--quiet', '-b', branch, '--track', `${remote}/${branch}`]];
      for (const step of steps) {
        const result = await git(cwd, step, env);
        if (result.code !== 0) throw new CliError(`git ${step.join(' ')} failed: ${lastLine(result.stderr)}`);
      }
      const head = await git(cwd, ['rev-parse', '--short', 'HEAD'], env);
      ctx.out(`Checked out ${branch} (${remote}/${branch}) at ${head.stdout.trim()}.`);
    });
}

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';
