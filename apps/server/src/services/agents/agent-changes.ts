import { and, eq, sql } from 'drizzle-orm';
import { agents, agentSources, type Db } from '@tandem/db';
import { AppError } from '../../errors/app-error.js';

/** Small writes on one agent the caller has already authorised (workspace §2, §6). */

export async function renameAgent(db: Db, agentId: string, title: string): Promise<void> {
  await db.update(agents).set({ title }).where(eq(agents.id, agentId));
}

export async function setArchived(db: Db, agentId: string, archived: boolean): Promise<void> {
  await db.update(agents).set({ archived }).where(eq(agents.id, agentId));
}

/** Appends to the scripts the agent's runner will start; running one never wakes the model. */
export async function queueScript(
  db: Db,
  agentId: string,
  script: { script_path: string; restart: boolean },
): Promise<void> {
  await db
    .update(agents)
    .set({ pendingScripts: sql`${agents.pendingScripts} || ${JSON.stringify([script])}::jsonb` })
    .where(eq(agents.id, agentId));
}

/** How a subscription wakes the agent; 404 when the source is not this agent's. */
export async function setSourceBehavior(
  db: Db,
  agentId: string,
  sourceId: string,
  behavior: string,
): Promise<void> {
  const changed = await db
    .update(agentSources)
    .set({ behavior })
    .where(and(eq(agentSources.id, sourceId), eq(agentSources.agentId, agentId)))
    .returning({ id: agentSources.id });
  if (!changed.length) throw new AppError('not_found', 'Source not found');
}
