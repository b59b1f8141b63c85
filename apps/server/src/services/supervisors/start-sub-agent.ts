import type { SubAgentView } from '@tandem/agent';
import { agents, users, type Db } from '@tandem/db';
import { createAgentSchema } from '@tandem/shared';
import { count, eq } from 'drizzle-orm';
import { AppError } from '../../errors/app-error.js';
import { createAgent, type AgentCreationDeps } from '../agents/create-agent.js';
import type { SunsetGate } from '../sunset-gate.js';
import { subAgentViews } from './list-sub-agents.js';

/** How many sub-agents one supervisor may start, ever (a runaway guard; docs/decisions.md). */
export const MAX_SUB_AGENTS = 10;

export const SUB_AGENT_MESSAGES = {
  limit: `A supervisor may start at most ${MAX_SUB_AGENTS} sub-agents; message one of yours (message_sub_agent) instead`,
  notSupervisor: 'Only supervisor agents can start sub-agents',
  notAdmin: "Supervisor agents are for admins only, and this supervisor's creator is not an admin",
  archived: 'This supervisor is archived',
} as const;

export interface SupervisionDeps {
  db: Db;
  webUrl: string;
  sunset: SunsetGate;
  models: AgentCreationDeps['models'];
  runner: { enqueue(agentId: string): void };
}

/**
 * A supervisor starts a sub-agent: created by the same service as a person's create, as the
 * supervisor's creator, so credits, bans, sunset mode and repository access all apply. The
 * repository is the model's choice (hostile input): createAgent finds it only among the creator's
 * installations, and only the supervisor's own installation is accepted.
 */
export async function startSubAgent(
  deps: SupervisionDeps,
  supervisorId: string,
  input: { repository: string; task: string; base_branch?: string },
): Promise<SubAgentView> {
  const { db } = deps;
  const [supervisor] = await db.select().from(agents).where(eq(agents.id, supervisorId));
  if (!supervisor || supervisor.agentType !== 'supervisor')
    throw new AppError('forbidden', SUB_AGENT_MESSAGES.notSupervisor);
  if (supervisor.archived) throw new AppError('forbidden', SUB_AGENT_MESSAGES.archived);
  // createAgent checks sunset mode too; checked first here so the model is told before anything else.
  deps.sunset.requireNewAgents();
  const [creator] = await db.select().from(users).where(eq(users.id, supervisor.creatorId));
  if (!creator?.admin) throw new AppError('forbidden', SUB_AGENT_MESSAGES.notAdmin);
  const [started] = await db
    .select({ n: count() })
    .from(agents)
    .where(eq(agents.supervisorId, supervisor.id));
  if ((started?.n ?? 0) >= MAX_SUB_AGENTS) throw new AppError('validation', SUB_AGENT_MESSAGES.limit);
  const parsed = createAgentSchema.safeParse({
    body: input.task,
    base_branch: input.base_branch ?? null,
    // The supervisor's model when the creator may still run it; else the repository's default.
    model: deps.models.selectable(supervisor.model, creator.admin) ? supervisor.model : null,
  });
  if (!parsed.success) throw new AppError('validation', parsed.error.issues.map((i) => i.message).join('; '));
  const viewer = { id: creator.id, username: creator.username, admin: creator.admin, sessionId: '' };
  const created = await createAgent(
    db,
    viewer,
    input.repository,
    parsed.data,
    { models: deps.models, sunset: deps.sunset },
    null,
    {
      id: supervisor.id,
      installationId: supervisor.installationId,
    },
  );
  deps.runner.enqueue(created.agent_id);
  const [view] = await subAgentViews(db, deps.webUrl, { ids: [created.agent_id] });
  return view!;
}
