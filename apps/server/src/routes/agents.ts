import type { FastifyInstance } from 'fastify';
import type { Db } from '@tandem/db';
import {
  agentListQuerySchema,
  archiveSchema,
  behaviorSchema,
  runScriptSchema,
  sendMessageSchema,
  summarizationLimitError,
  updateModelSchema,
  updateSummarizationLimitSchema,
  conversationQuerySchema,
  createAgentSchema,
  MAX_IMAGE_DATA_CHARS,
  MAX_IMAGES_PER_MESSAGE,
  trajectoryQuerySchema,
  updateTitleSchema,
  type Supervisor,
} from '@tandem/shared';
import { z } from 'zod';
import { requireUser } from '../auth/authenticate.js';
import { requireAnyReader, requireReader } from '../auth/party-reader.js';
import { newAgentStart, type AgentRunner } from '@tandem/agent';
import type { ModelsConfig } from '../config/schema.js';
import { AppError } from '../errors/app-error.js';
import { limitJsonValues } from '../http/json-budget.js';
import { parseRequest } from '../http/validation.js';
import { sendPolledJson } from '../http/polled-json.js';
import {
  agentMetadata,
  conversationPage,
  createAgent,
  readMemberRepository,
  listAgents,
  loadAgent,
  loadSteerableAgent,
  markAllRead,
  markRead,
  sendMessage,
  updateAgent,
} from '../services/agents.js';
import type { RepositoryAccess } from '../services/repositories/repository-access.js';
import {
  renameAgent,
  queueScript,
  setArchived,
  setSourceBehavior,
} from '../services/agents/agent-changes.js';
import { latestTimestamp } from '../services/latest-timestamp.js';
import { statusCountsAnswer } from '../services/status-counts.js';
import type { SunsetGate } from '../services/sunset-gate.js';
import type { PollCache } from '../services/poll-cache/poll-cache.js';
import { conflictingAgent } from '../services/sources.js';
import { spiceWindow } from '../services/spice.js';
import { stopAgent } from '../services/supervisors/stop-agent.js';
import { modelChoices, modelList } from './models.js';

const repoParams = z.object({
  repo_owner: z.string().min(1).max(100),
  repo_name: z.string().min(1).max(100),
});
/**
 * Bodies that may carry images: the images at their largest (base64) plus 8 MiB for the text and
 * review comments, ~75 MB. Everything else keeps the 2 MiB default (413 beyond).
 */
export const MESSAGE_BODY_LIMIT = MAX_IMAGES_PER_MESSAGE * MAX_IMAGE_DATA_CHARS + 8 * 1024 * 1024;
/**
 * Values (objects, arrays, items) one such body may hold: a full message with ten images and a
 * hundred review comments has about 1 500. Without a cap, 75 MB of `[{},{},…]` would parse into
 * some 25 million objects, gigabytes of memory.
 */
export const MESSAGE_MAX_JSON_VALUES = 20_000;
export const CREATE_AGENT_WRITE_NEEDED = 'You need write access to this repository to create agents.';

export function agentRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    models: ModelsConfig;
    runner: Pick<AgentRunner, 'enqueue' | 'interrupt'>;
    access: RepositoryAccess;
    pollCache: PollCache;
    sunset: SunsetGate;
  },
): void {
  const { db, access, pollCache } = deps;
  const choices = modelChoices(deps.models);

  // The two bodies that carry images: large, but only a few values (see limitJsonValues).
  app.register(async (scope) => {
    limitJsonValues(scope, { bodyLimit: MESSAGE_BODY_LIMIT, maxValues: MESSAGE_MAX_JSON_VALUES });

    scope.post('/api/agents/create-agent/:repo_owner/:repo_name', async (request) => {
      const viewer = requireUser(request);
      const params = parseRequest(repoParams, request.params, 'path');
      const body = parseRequest(createAgentSchema, request.body, 'body');
      const fullName = `${params.repo_owner}/${params.repo_name}`;
      // Agents push to the repository, so creating one takes write access there. The repository is
      // read once, with what the creation checks besides (membership, standing, default models).
      const repository = await access.requireRow(
        viewer,
        await readMemberRepository(db, viewer.id, fullName),
        'write',
        CREATE_AGENT_WRITE_NEEDED,
      );
      const created = await createAgent(db, viewer, repository, body, {
        models: choices,
        sunset: deps.sunset,
      });
      deps.runner.enqueue(created.agent_id, newAgentStart(repository, body.base_branch));
      return created;
    });

    scope.post('/api/agent/message', async (request) => {
      const { trajectory_id } = parseRequest(trajectoryQuerySchema, request.query, 'query');
      const body = parseRequest(sendMessageSchema, request.body, 'body');
      deps.sunset.requireMessages();
      const sent = await sendMessage(db, requireUser(request), trajectory_id, body);
      deps.runner.enqueue(trajectory_id);
      return sent;
    });
  });

  app.get('/api/agents', async (request) =>
    listAgents(db, requireUser(request), parseRequest(agentListQuerySchema, request.query, 'query')),
  );

  // Registered before the list route's pattern so 'supervisors' is not read as an owner.
  app.get('/api/agents/supervisors/:repo_owner/:repo_name', async (request) => {
    const viewer = requireUser(request);
    const params = parseRequest(repoParams, request.params, 'path');
    await access.require(viewer, `${params.repo_owner}/${params.repo_name}`);
    const { agents } = await listAgents(
      db,
      viewer,
      {
        ...agentListQuerySchema.parse({}),
        search: 'is:unarchived',
        rows_per_page: 100,
        orderBy: 'last_active',
        repository_name: `${params.repo_owner}/${params.repo_name}`,
      },
      { agentType: 'supervisor' },
    );
    return agents.map((a): Supervisor => ({ id: a.id, title: a.title, base_branch: a.base_branch }));
  });

  app.get('/api/agents/:repo_owner/:repo_name', async (request) => {
    const viewer = requireUser(request);
    const params = parseRequest(repoParams, request.params, 'path');
    const query = parseRequest(agentListQuerySchema, request.query, 'query');
    // Without access to the repository its agents list is a 404, not an empty list.
    await access.require(viewer, `${params.repo_owner}/${params.repo_name}`);
    return listAgents(db, viewer, {
      ...query,
      repository_name: `${params.repo_owner}/${params.repo_name}`,
    });
  });

  app.get('/api/agent/metadata', async (request) => {
    requireAnyReader(request);
    const { trajectory_id } = parseRequest(trajectoryQuerySchema, request.query, 'query');
    // The three reads of the feed also open to the party page's token (auth/party-reader.ts).
    return agentMetadata(db, requireReader(request, trajectory_id), trajectory_id);
  });

  app.get('/api/agent/conversation', async (request) => {
    requireAnyReader(request);
    const query = parseRequest(conversationQuerySchema, request.query, 'query');
    const viewer = requireReader(request, query.trajectory_id);
    // Read before the items: the page's latest_timestamp is then never newer than what it holds.
    const agent = await loadAgent(db, viewer, query.trajectory_id);
    const page = {
      ...(await conversationPage(db, query.trajectory_id, query.before)),
      // The newest page says which latest-timestamp it is current with, so a poll naming the same
      // one does not make the workspace read it again.
      ...(query.before ? {} : { latest_timestamp: agent.latestTimestamp?.toISOString() ?? null }),
    };
    if (!viewer.admin) return page;
    // Admins also get the model's context for the same stretch of time (Spice Messages).
    const spice = await spiceWindow(db, query.trajectory_id, {
      from: page.has_more ? page.oldest_timestamp : null,
      before: query.before,
    });
    return { ...page, spice };
  });

  // The polls every open tab makes every 2.5–3 s: successful answers are not worth a log line each.
  // Its answer is a few dozen bytes, always under the compression threshold: no compression hook.
  app.get('/api/agent/latest-timestamp', { logLevel: 'warn', compress: false }, async (request) => {
    requireAnyReader(request);
    const { trajectory_id } = parseRequest(trajectoryQuerySchema, request.query, 'query');
    return latestTimestamp(db, pollCache, requireReader(request, trajectory_id), trajectory_id);
  });

  app.post('/api/agent/update-title', async (request) => {
    const viewer = requireUser(request);
    const body = parseRequest(updateTitleSchema, request.body, 'body');
    const agent = await loadSteerableAgent(
      db,
      viewer,
      body.trajectory_id,
      'Only the owner can rename this agent',
    );
    await renameAgent(db, agent.id, body.title);
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
      if (!archived) {
        const conflict = await conflictingAgent(db, agent.id);
        if (conflict) return { success: false, error_data: conflict };
      }
      await setArchived(db, agent.id, archived);
      return { success: true };
    });
  }

  app.post('/api/agent/interrupt', async (request) => {
    const viewer = requireUser(request);
    const { trajectory_id } = parseRequest(archiveSchema, request.body, 'body');
    const agent = await loadSteerableAgent(db, viewer, trajectory_id, 'Only the owner can pause this agent');
    await stopAgent(db, deps.runner, agent);
    return { success: true };
  });

  app.post('/api/agent/run-script', async (request) => {
    const viewer = requireUser(request);
    const body = parseRequest(runScriptSchema, request.body, 'body');
    const agent = await loadSteerableAgent(
      db,
      viewer,
      body.trajectory_id,
      'Only the owner can run scripts for this agent',
    );
    await queueScript(db, agent.id, { script_path: body.script_path, restart: body.restart });
    deps.runner.enqueue(agent.id);
    return { success: true };
  });

  app.post('/api/agent/behavior', async (request) => {
    const viewer = requireUser(request);
    const body = parseRequest(behaviorSchema, request.body, 'body');
    const agent = await loadSteerableAgent(
      db,
      viewer,
      body.trajectory_id,
      'Only the owner can change how this agent follows its sources',
    );
    await setSourceBehavior(db, agent.id, body.source_id, body.behavior);
    return agentMetadata(db, viewer, agent.id);
  });

  // Compressed by the answer itself, once per encoding while it is cached (http/polled-json.ts).
  app.get('/api/agents/status-counts', { logLevel: 'warn', compress: false }, async (request, reply) =>
    sendPolledJson(request, reply, await statusCountsAnswer(db, pollCache, requireUser(request))),
  );

  app.post('/api/agent/mark-all-read', async (request) => {
    await markAllRead(db, requireUser(request));
    return { success: true };
  });

  app.post('/api/agent/mark-read', async (request) => {
    const viewer = requireUser(request);
    const { trajectory_id } = parseRequest(trajectoryQuerySchema, request.query, 'query');
    await loadAgent(db, viewer, trajectory_id);
    await markRead(db, viewer, trajectory_id);
    return { success: true };
  });

  app.put('/api/agent/update-model', async (request) => {
    const viewer = requireUser(request);
    const body = parseRequest(updateModelSchema, request.body, 'body');
    if (!body.model) throw new AppError('validation', 'Choose a model');
    const model = choices.resolve(body.model, viewer.admin);
    await updateAgent(db, viewer, body.trajectory_id, { model: model.key });
    return agentMetadata(db, viewer, body.trajectory_id);
  });

  app.put('/api/agent/update-review-model', async (request) => {
    const viewer = requireUser(request);
    const body = parseRequest(updateModelSchema, request.body, 'body');
    // null or '' turns the reviewer off (workspace §5: an empty stored review model means none).
    const reviewModel = body.model ? choices.resolve(body.model, viewer.admin).key : null;
    await updateAgent(db, viewer, body.trajectory_id, { reviewModel });
    return agentMetadata(db, viewer, body.trajectory_id);
  });

  app.put('/api/agent/update-summarization-limit', async (request) => {
    const viewer = requireUser(request);
    const body = parseRequest(updateSummarizationLimitSchema, request.body, 'body');
    const agent = await loadAgent(db, viewer, body.trajectory_id);
    const option = modelList(deps.models, true).models.find((m) => m.key === agent.model);
    if (!option) throw new AppError('bad_request', `The agent's model ${agent.model} is no longer offered`);
    // A 400 whose body the web app shows as it is (workspace §8).
    const problem = summarizationLimitError(body.summarization_limit, option);
    if (problem) throw new AppError('bad_request', problem);
    await updateAgent(db, viewer, agent.id, { summarizationLimit: Number(body.summarization_limit) });
    return agentMetadata(db, viewer, agent.id);
  });
}
