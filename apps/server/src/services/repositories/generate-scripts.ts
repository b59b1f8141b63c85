import { GENERATE_SCRIPTS_TASK } from '@tandem/shared';
import type { Db } from '@tandem/db';
import { createAgent, type AgentCreationDeps } from '../agents.js';
import type { AuthenticatedUser } from '../sessions.js';
import type { AccessibleRepository } from './repository-access.js';
import { GENERATE_SCRIPTS_PURPOSE } from './repository-scripts.js';

/**
 * Starts an agent whose task is to write the repository's `.tandem/` scripts and open a pull
 * request with them (platform §4 "Script generation"), with the repository's default models.
 */
export async function generateScripts(
  db: Db,
  viewer: AuthenticatedUser,
  repository: AccessibleRepository,
  deps: AgentCreationDeps,
): Promise<{ agent_id: string }> {
  const created = await createAgent(
    db,
    viewer,
    repository.fullName,
    { body: GENERATE_SCRIPTS_TASK, images: [], is_supervisor: false },
    deps,
    GENERATE_SCRIPTS_PURPOSE,
  );
  return { agent_id: created.agent_id };
}
