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
import { requireAnyReader, requireReader } from '../auth/party-reader.js';
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

  // The reads of the diff window also open to the party page's token (auth/party-reader.ts).
  app.get('/api/agent/branch', async (request) => {
    requireAnyReader(request);
    const query = parseRequest(agentBranchQuerySchema, request.query, 'query');
    return agentBranch(db, reader, requireReader(request, query.trajectory_id), query);
  });

  app.get('/api/agent/diff', async (request, reply) => {
    requireAnyReader(request);
    const query = parseRequest(agentDiffQuerySchema, request.query, 'query');
    const diff = await agentDiff(db, reader, requireReader(request, query.trajectory_id), query);
    // Two commit SHAs name content that never changes; the browser may keep it.
    if (query.from.length === 40 && query.to.length === 40)
      reply.header('cache-control', 'private, max-age=86400');
    return diff;
  });

  app.get('/api/agent/file', async (request) => {
    requireAnyReader(request);
    const query = parseRequest(agentFileQuerySchema, request.query, 'query');
    return agentFile(db, reader, requireReader(request, query.trajectory_id), query);
  });

  app.get('/api/agent/log', async (request) => {
    requireAnyReader(request);
    const query = parseRequest(agentLogQuerySchema, request.query, 'query');
    return agentLog(db, requireReader(request, query.trajectory_id), query);
  });

  app.get('/api/agent/scripts', async (request) => {
    const { trajectory_id } = parseRequest(trajectoryQuerySchema, request.query, 'query');
    return agentScripts(db, reader, requireUser(request), trajectory_id);
  });
}
