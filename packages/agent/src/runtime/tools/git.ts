import { z } from 'zod';
import { recordScriptLog } from '../script-logs.js';
import { upsertBranchSource } from '../sources.js';
import { fetchOrigin, pushBranch, runRepoScript, sandboxGit } from '../../sandbox/index.js';
import { actionItem } from '../items.js';
import { defineTool, ToolInputError, type ToolContext } from './types.js';

export const FORMAT_SCRIPT = '.tandem/format.sh';
export const FORMAT_TIMEOUT_MS = 3 * 60_000;

async function mustGit(ctx: ToolContext, args: string[]): Promise<string> {
  const result = await sandboxGit(ctx.workspace, args, { timeoutMs: 60_000 });
  if (result.exitCode !== 0) throw new Error(`git ${args[0]} failed: ${ctx.scrub(result.stderr.trim())}`);
  return result.stdout.trim();
}

/** Runs the repository's format script and stores its log; null when the repository has none. */
async function formatScript(ctx: ToolContext) {
  const run = await runRepoScript(ctx.workspace, FORMAT_SCRIPT, {
    env: ctx.env,
    timeoutMs: FORMAT_TIMEOUT_MS,
    kind: ctx.sandboxKind,
    network: ctx.network,
    scrub: ctx.scrub,
  });
  if (!run.exists) return null;
  const logId = await recordScriptLog(
    ctx.db,
    { repositoryId: ctx.repo.id, agentId: ctx.agent.id },
    run,
    ctx.scrub,
  );
  return { logId, status: run.statusCode === 0 ? 'success' : 'failure', output: run.output };
}

function coAuthor(ctx: ToolContext): string {
  const email = ctx.requester.email ?? `${ctx.requester.username}@users.noreply.github.com`;
  return `Co-authored-by: ${ctx.requester.username} <${email}>`;
}

const TRAILER = 'Tandem-Tool-Call';

/** GitHub's answer to an App without the `workflows` permission that pushes a workflow change. */
const WORKFLOW_REFUSAL = /refusing to allow a GitHub App to create or update workflow/i;
export const WORKFLOW_REFUSAL_MESSAGE =
  "The code host refused the push: it changes files under .github/workflows/, and Tandem's GitHub App may not change workflows. The commit is kept in the sandbox. Undo the changes to .github/workflows/ (git reset --soft HEAD~1, restore those files, commit again) and push, and tell the user which workflow change they need to make themselves.";

export const commitAndPush = defineTool({
  name: 'commit_and_push',
  description:
    "Commit every change in the repository with the given message and push the agent's branch. Runs .tandem/format.sh first when the repository has one.",
  input: z.object({ message: z.string().min(1).max(5000) }),
  async execute(input, ctx) {
    const { branch } = ctx.workspace;
    const done = await ctx.once(`commit:${ctx.toolCallId}`, async () => {
      // A run killed after committing but before recording it finds its own commit by the trailer.
      const found = await mustGit(ctx, [
        'log',
        '--format=%H',
        `--grep=^${TRAILER}: ${ctx.toolCallId}$`,
        '-n',
        '1',
      ]);
      if (found) return { commit_sha: found, script_log: null, script_status: null };
      const format = await formatScript(ctx);
      await mustGit(ctx, ['add', '-A']);
      const staged = await sandboxGit(ctx.workspace, ['diff', '--cached', '--quiet', '--no-ext-diff']);
      // A merge in progress is committed even when it changes no file (the base merged with our
      // side kept): the merge commit is what makes the pull request mergeable again.
      const merging = await sandboxGit(ctx.workspace, ['rev-parse', '-q', '--verify', 'MERGE_HEAD']);
      if (staged.exitCode === 0 && merging.exitCode !== 0)
        throw new ToolInputError('There is nothing to commit');
      const message = `${ctx.scrub(input.message.trim())}\n\n${coAuthor(ctx)}\n${TRAILER}: ${ctx.toolCallId}`;
      await mustGit(ctx, ['commit', '-q', '-m', message]);
      const sha = await mustGit(ctx, ['rev-parse', 'HEAD']);
      return { commit_sha: sha, script_log: format?.logId ?? null, script_status: format?.status ?? null };
    });
    const push = await pushBranch(ctx.workspace, ctx.gitAuth);
    if (!push.pushed) {
      if (WORKFLOW_REFUSAL.test(push.output)) {
        // Said in the feed too: the person has to make this change, not the agent.
        await ctx.emit(actionItem('ErrorEvent', { exception: WORKFLOW_REFUSAL_MESSAGE }));
        throw new ToolInputError(WORKFLOW_REFUSAL_MESSAGE);
      }
      throw new Error(`git push failed: ${ctx.scrub(push.output.trim())}`);
    }
    await ctx.emit({
      itemType: 'commit',
      dedupeKey: `commit:${ctx.toolCallId}`,
      data: {
        commit_sha: done.commit_sha,
        repository_name: ctx.repo.fullName,
        branch,
        commit_message: input.message.trim(),
        script_log: done.script_log,
        script_status: done.script_status,
        workflows: [],
        username: ctx.requester.username,
        user_id: ctx.agent.creatorId,
      },
    });
    await upsertBranchSource(ctx.db, { agentId: ctx.agent.id, repositoryId: ctx.repo.id }, branch, {
      prDraftBaseBranch: ctx.workspace.baseBranch,
    });
    const formatNote = done.script_status ? ` (format script: ${done.script_status})` : '';
    // Automatic PR Creation off: remind the model at the moment it would open one by itself.
    const prNote =
      ctx.requester.autoCreatePr === false
        ? '. Automatic pull request creation is off: do not open a pull request unless the user asked for one'
        : '';
    return {
      output: `Committed ${String(done.commit_sha).slice(0, 7)} and pushed ${branch}${formatNote}${prNote}`,
    };
  },
});

export const gitFetch = defineTool({
  name: 'git_fetch',
  description:
    "Fetch the code host's branches into origin/* (for example after the base branch moved: then merge origin/<base> into your branch). Your branch and working tree are not changed.",
  input: z.object({}),
  async execute(_input, ctx) {
    await fetchOrigin(ctx.workspace, ctx.gitAuth);
    const base = ctx.workspace.baseBranch;
    const head = await sandboxGit(ctx.workspace, [
      'log',
      '-1',
      '--format=%h %s',
      `refs/remotes/origin/${base}`,
    ]);
    const behind = await sandboxGit(ctx.workspace, [
      'rev-list',
      '--count',
      `HEAD..refs/remotes/origin/${base}`,
    ]);
    const lines = ['Fetched origin.'];
    if (head.exitCode === 0) lines.push(`origin/${base} is at ${ctx.scrub(head.stdout.trim())}`);
    if (behind.exitCode === 0)
      lines.push(`${behind.stdout.trim()} commit(s) on origin/${base} are not in your branch.`);
    return { output: lines.join('\n') };
  },
});
