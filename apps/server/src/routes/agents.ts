import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { agents, type Db } from '@tandem/db';
import {
  agentListQuerySchema,
  archiveSchema,
  conversationQuerySchema,
  createAgentSchema,
  trajectoryQuerySchema,
  updateTitleSchema,
} from '@tandem/shared';
import { z } from 'zod';
import { requireUser } from '../auth/authenticate.js';
import type { ModelsConfig } from '../config/schema.js';
import { AppError } from '../errors/app-error.js';
import { parseRequest } from '../http/validation.js';
import { agentMetadata, conversationPage, createAgent, listAgents, loadAgent } from '../services/agents.js';
import { modelList } from './models.js';

const repoParams = z.object({
  repo_owner: z.string().min(1).max(100),
  repo_name: z.string().min(1).max(100),
});
/** Agent creation carries up to 20 images. */
const CREATE_BODY_LIMIT = 150 * 1024 * 1024;

export function agentRoutes(app: FastifyInstance, deps: { db: Db; models: ModelsConfig }): void {
  const { db } = deps;
  const resolveModel = (key: string | null | undefined, admin: boolean) => {
    const chosen = key ?? deps.models.defaultModel;
    const option = modelList(deps.models, admin).models.find((m) => m.key === chosen);
    if (!option) throw new AppError('validation', `Unknown model "${chosen}"`);
    return { key: option.key, defaultLimit: option.default_summarization_limit };
  };

  app.post(
    '/api/agents/create-agent/:repo_owner/:repo_name',
    { bodyLimit: CREATE_BODY_LIMIT },
    async (request) => {
      const viewer = requireUser(request);
      const params = parseRequest(repoParams, request.params, 'path');
      const body = parseRequest(createAgentSchema, request.body, 'body');
      return createAgent(db, viewer, `${params.repo_owner}/${params.repo_name}`, body, {
        resolve: resolveModel,
      });
    },
  );

  app.get('/api/agents', async (request) =>
    listAgents(db, requireUser(request), parseRequest(agentListQuerySchema, request.query, 'query')),
  );

  app.get('/api/agents/:repo_owner/:repo_name', async (request) => {
    const params = parseRequest(repoParams, request.params, 'path');
    const query = parseRequest(agentListQuerySchema, request.query, 'query');
    return listAgents(db, requireUser(request), {
      ...query,
      repository_name: `${params.repo_owner}/${params.repo_name}`,
    });
  });

  app.get('/api/agent/metadata', async (request) => {
    const { trajectory_id } = parseRequest(trajectoryQuerySchema, request.query, 'query');
    return agentMetadata(db, requireUser(request), trajectory_id);
  });

  app.get('/api/agent/conversation', async (request) => {
    const viewer = requireUser(request);
    const query = parseRequest(conversationQuerySchema, request.query, 'query');
    await loadAgent(db, viewer, query.trajectory_id);
    return conversationPage(db, query.trajectory_id, query.before);
  });

  app.get('/api/agent/latest-timestamp', async (request) => {
    const { trajectory_id } = parseRequest(trajectoryQuerySchema, request.query, 'query');
    const agent = await loadAgent(db, requireUser(request), trajectory_id);
    return { latest_timestamp: agent.latestTimestamp?.toISOString() ?? null };
  });

  app.post('/api/agent/update-title', async (request) => {
    const viewer = requireUser(request);
    const body = parseRequest(updateTitleSchema, request.body, 'body');
    const agent = await loadAgent(db, viewer, body.trajectory_id);
    if (agent.creatorId !== viewer.id && !viewer.admin)
      throw new AppError('forbidden', 'Only the owner can rename this agent');
    await db.update(agents).set({ title: body.title }).where(eq(agents.id, agent.id));
    return agentMetadata(db, viewer, agent.id);
  });

  for (const [path, archived] of [
    ['/api/agent/archive', true],
    ['/api/agent/unarchive', false],
  ] as const) {
    app.post(path, async (request) => {
      const viewer = requireUser(request);
      const body = parseRequest(archiveSchema, request.body, 'body');
      const agent = await loadAgent(db, viewer, body.trajectory_id);
      // Only the owner sees the archive button (workspace §6); the API holds to the same rule.
      if (agent.creatorId !== viewer.id)
        throw new AppError('forbidden', 'Only the owner can archive this agent');
      await db
        .update(agents)
        .set({ archived })
        .where(and(eq(agents.id, agent.id)));
      return { success: true };
    });
  }
}
