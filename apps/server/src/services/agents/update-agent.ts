import { eq } from 'drizzle-orm';
import { agents, type Db } from '@tandem/db';
import type { AuthenticatedUser } from '../sessions.js';

import { loadSteerableAgent, type AgentRow } from './agent-access.js';

export async function updateAgent(
  db: Db,
  viewer: AuthenticatedUser,
  agentId: string,
  change: Partial<Pick<AgentRow, 'model' | 'reviewModel' | 'summarizationLimit'>>,
): Promise<AgentRow> {
  await loadSteerableAgent(db, viewer, agentId, 'Only the owner can change this agent');
  const [updated] = await db.update(agents).set(change).where(eq(agents.id, agentId)).returning();
  return updated!;
}
