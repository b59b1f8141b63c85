import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { appendItem } from '@tandem/agent';
import { agents, agentSources, repositories } from '@tandem/db';
import type { PushWebhookPayload } from '@tandem/shared';
import type { GitHubEventDeps } from './handle-thread-event.js';

/** GitHub works out `mergeable` after a push in the background: asked this often, this far apart. */
const MERGEABLE_TRIES = 4;
const MERGEABLE_DELAY_MS = 1000;

/**
 * A branch moved: agents' open pull requests into it that now conflict wake their agent, which
 * fetches, merges the base into its branch, resolves the conflicts, tests and pushes (or says on
 * the pull request why it cannot). One wake per pull request and base commit.
 */
export async function wakeForConflicts(
  deps: GitHubEventDeps,
  payload: PushWebhookPayload,
  delays: { ms: number; tries: number } = { ms: MERGEABLE_DELAY_MS, tries: MERGEABLE_TRIES },
): Promise<string[]> {
  if (
    !payload.ref.startsWith('refs/heads/') ||
    payload.deleted ||
    !payload.repository ||
    !payload.installation
  )
    return [];
  const base = payload.ref.slice('refs/heads/'.length);
  const [repo] = await deps.db
    .select({
      id: repositories.id,
      fullName: repositories.fullName,
      installationId: repositories.installationId,
    })
    .from(repositories)
    .where(and(eq(repositories.githubId, payload.repository.id), isNull(repositories.removedAt)));
  if (!repo || repo.installationId !== payload.installation.id) return [];
  // The agents' own pull requests (their branch's source), still open.
  const pulls = await deps.db
    .select({ agentId: agents.id, creatorId: agents.creatorId, number: agentSources.number })
    .from(agentSources)
    .innerJoin(agents, eq(agents.id, agentSources.agentId))
    .where(
      and(
        eq(agentSources.repositoryId, repo.id),
        eq(agentSources.type, 'branch'),
        eq(agentSources.state, 'open'),
        isNotNull(agentSources.number),
        eq(agentSources.branch, agents.branch),
        eq(agents.archived, false),
      ),
    );
  if (!pulls.length) return [];
  const [owner = '', name = ''] = repo.fullName.split('/');
  const client = deps.gateway.installationClient(repo.installationId);
  const woken: string[] = [];
  for (const pull of pulls) {
    const number = pull.number!;
    let mergeable: boolean | null = null;
    let target: string | undefined;
    for (let attempt = 0; attempt < delays.tries; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, delays.ms));
      try {
        const { data } = await client.rest.pulls.get({ owner, repo: name, pull_number: number });
        target = data.base.ref;
        if (data.state !== 'open' || target !== base) break;
        mergeable = data.mergeable ?? null;
      } catch (error) {
        deps.log.warn(
          { err: error, repository: repo.fullName, number },
          'conflict check: cannot read the pull request',
        );
        break;
      }
      if (mergeable !== null) break;
    }
    if (target !== base || mergeable !== false) continue;
    await appendItem(deps.db, pull.agentId, {
      itemType: 'message',
      actionType: 'merge_conflict',
      // The model is fed messages that have a person; the notice speaks for the agent's owner.
      userId: pull.creatorId,
      dedupeKey: `conflict:${number}:${payload.after}`,
      data: {
        message: [
          `${base} moved (now ${payload.after.slice(0, 7)}) and pull request #${number} has merge conflicts with it.`,
          `Run git_fetch, merge origin/${base} into your branch, resolve the conflicts, run the tests, and commit and push.`,
          'If you cannot resolve them safely, comment on the pull request saying which files conflict and why, then finish.',
        ].join(' '),
        username: 'Tandem',
        repository_name: repo.fullName,
        number,
      },
    });
    await deps.db.update(agents).set({ status: 'pending' }).where(eq(agents.id, pull.agentId));
    deps.runner.enqueue(pull.agentId);
    woken.push(pull.agentId);
  }
  return woken;
}
