import { ToolInputError, type AgentRunner, type SupervisionHost } from '@tandem/agent';
import type { Db } from '@tandem/db';
import type { Sunset } from '@tandem/shared';
import type { ModelsConfig } from '../config/schema.js';
import { AppError } from '../errors/app-error.js';
import { modelChoices } from '../routes/models.js';
import { subAgentViews } from '../services/supervisors/list-sub-agents.js';
import { messageSubAgent } from '../services/supervisors/message-sub-agent.js';
import { reportSubAgent } from '../services/supervisors/report-sub-agent.js';
import { startSubAgent } from '../services/supervisors/start-sub-agent.js';
import { SunsetGate } from '../services/sunset-gate.js';

/** A refusal (no credits, not found, the limit) is the model's to read, not an error of the run. */
async function asToolErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw new ToolInputError(error.message);
    throw error;
  }
}

/**
 * The server's side of supervisor agents' tools, given to the agent runtime. The runner exists
 * only once the runtime does: it is read late.
 */
export function createSupervisionHost(options: {
  db: Db;
  models: ModelsConfig;
  webUrl: string;
  sunset: Sunset | null;
  runner: () => Pick<AgentRunner, 'enqueue'>;
}): SupervisionHost {
  const runner = { enqueue: (agentId: string) => options.runner().enqueue(agentId) };
  const deps = {
    db: options.db,
    webUrl: options.webUrl,
    sunset: new SunsetGate(options.sunset),
    models: modelChoices(options.models),
    runner,
  };
  return {
    startSubAgent: (supervisor, input) => asToolErrors(() => startSubAgent(deps, supervisor.id, input)),
    messageSubAgent: (supervisor, subAgentId, message) =>
      asToolErrors(() => messageSubAgent(deps, supervisor.id, subAgentId, message)),
    listSubAgents: (supervisor) => subAgentViews(options.db, options.webUrl, { supervisorId: supervisor.id }),
    reportBack: (subAgentId, outcome, detail) => reportSubAgent(deps, subAgentId, outcome, detail),
  };
}
