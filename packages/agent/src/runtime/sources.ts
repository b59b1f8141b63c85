import { agentSources, type Db } from '@tandem/db';
import { and, eq, isNull } from 'drizzle-orm';

export type SourceState = 'open' | 'merged' | 'closed';

interface Owner {
  agentId: string;
  repositoryId: string;
}

/**
 * The agent's branch as a source: created on its first push, given the pull request's number and
 * draft when one is opened. One row per (agent, branch).
 */
export async function upsertBranchSource(
  db: Db,
  owner: Owner,
  branch: string,
  change: { number?: number; state?: SourceState; prDraft?: string; prDraftBaseBranch?: string },
): Promise<void> {
  const [existing] = await db
    .select({ id: agentSources.id, prDraft: agentSources.prDraft })
    .from(agentSources)
    .where(
      and(
        eq(agentSources.agentId, owner.agentId),
        eq(agentSources.type, 'branch'),
        eq(agentSources.branch, branch),
      ),
    );
  if (existing) {
    await db
      .update(agentSources)
      .set({
        ...(change.number !== undefined ? { number: change.number } : {}),
        ...(change.state ? { state: change.state } : {}),
        ...(change.prDraft !== undefined ? { prDraft: change.prDraft } : {}),
        ...(change.prDraftBaseBranch ? { prDraftBaseBranch: change.prDraftBaseBranch } : {}),
      })
      .where(eq(agentSources.id, existing.id));
    return;
  }
  await db.insert(agentSources).values({
    ...owner,
    type: 'branch',
    branch,
    number: change.number ?? null,
    state: change.state ?? 'open',
    prDraft: change.prDraft ?? null,
    prDraftBaseBranch: change.prDraftBaseBranch ?? null,
  });
}

/** An issue (or another pull request's branch) the agent follows; once per number. */
export async function subscribeNumber(
  db: Db,
  owner: Owner,
  source: { type: 'issue' | 'branch'; number: number; branch?: string; state: SourceState },
): Promise<void> {
  const [existing] = await db
    .select({ id: agentSources.id })
    .from(agentSources)
    .where(and(eq(agentSources.agentId, owner.agentId), eq(agentSources.number, source.number)));
  if (existing) {
    await db.update(agentSources).set({ state: source.state }).where(eq(agentSources.id, existing.id));
    return;
  }
  await db.insert(agentSources).values({
    ...owner,
    type: source.type,
    number: source.number,
    branch: source.branch ?? null,
    state: source.state,
  });
}

/**
 * An issue or pull request changed state (a tool closed it, or a webhook said so). A pull request
 * opened from an agent's branch by hand (the Create PR button) gives that branch source its number.
 */
export async function setNumberState(
  db: Db,
  repositoryId: string,
  number: number,
  state: SourceState,
  headBranch?: string,
): Promise<void> {
  if (headBranch) {
    await db
      .update(agentSources)
      .set({ number })
      .where(
        and(
          eq(agentSources.repositoryId, repositoryId),
          eq(agentSources.type, 'branch'),
          eq(agentSources.branch, headBranch),
          isNull(agentSources.number),
        ),
      );
  }
  await db
    .update(agentSources)
    .set({ state })
    .where(and(eq(agentSources.repositoryId, repositoryId), eq(agentSources.number, number)));
}
