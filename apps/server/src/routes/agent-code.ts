import type { FastifyInstance } from 'fastify';
import type { Db } from '@tandem/db';
import {
  agentBranchQuerySchema,
  agentDiffQuerySchema,
  agentFileQuerySchema,
  agentLogQuerySchema,
  trajectoryQuerySchema,
} from '@tandem/shared';
import { requireUser } from '../auth/authenticate.js';
import { parseRequest } from '../http/validation.js';
import {
  agentBranch,
  agentDiff,
  agentFile,
  agentLog,
  agentScripts,
  type CodeReader,
} from '../services/agent-code.js';

/** The workspace's code-host reads (diff window, file viewer, logs, Run Scripts menu). */
export function agentCodeRoutes(app: FastifyInstance, deps: { db: Db; reader: CodeReader }): void {
  const { db, reader } = deps;

  app.get('/api/agent/branch', async (request) =>
    agentBranch(
      db,
      reader,
      requireUser(request),
      parseRequest(agentBranchQuerySchema, request.query, 'query'),
    ),
  );

  app.get('/api/agent/diff', async (request, reply) => {
    const query = parseRequest(agentDiffQuerySchema, request.query, 'query');
    const diff = await agentDiff(db, reader, requireUser(request), query);
    // Two commit SHAs name content that never changes; the browser may keep it.
    if (query.from.length === 40 && query.to.length === 40)
      reply.header('cache-control', 'private, max-age=86400');
    return diff;
  });

  app.get('/api/agent/file', async (request) =>
    agentFile(db, reader, requireUser(request), parseRequest(agentFileQuerySchema, request.query, 'query')),
  );

  app.get('/api/agent/log', async (request) =>
    agentLog(db, requireUser(request), parseRequest(agentLogQuerySchema, request.query, 'query')),
  );

  app.get('/api/agent/scripts', async (request) => {
    const { trajectory_id } = parseRequest(trajectoryQuerySchema, request.query, 'query');
    return agentScripts(db, reader, requireUser(request), trajectory_id);
  });
}
