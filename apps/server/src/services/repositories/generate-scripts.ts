import { GENERATE_SCRIPTS_TASK } from '@tandem/shared';
import type { Db } from '@tandem/db';
import { createAgent, type AgentCreationDeps, type MemberRepository } from '../agents.js';
import type { AuthenticatedUser } from '../sessions.js';
import { GENERATE_SCRIPTS_PURPOSE } from './repository-scripts.js';

/**
 * Starts an agent whose task is to write the repository's `.tandem/` scripts and open a pull
 * request with them (platform §4 "Script generation"), with the repository's default models.
 */
export async function generateScripts(
  db: Db,
  viewer: AuthenticatedUser,
  /** As the route read it for its access check (readMemberRepository). */
  repository: MemberRepository,
  deps: AgentCreationDeps,
): Promise<{ agent_id: string }> {
  const created = await createAgent(
    db,
    viewer,
    repository,
    { body: GENERATE_SCRIPTS_TASK, images: [], is_supervisor: false },
    deps,
    GENERATE_SCRIPTS_PURPOSE,
  );
  return { agent_id: created.agent_id };
}
