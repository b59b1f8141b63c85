import type { FastifyInstance } from 'fastify';
import type { Db } from '@tandem/db';
import { requireUser } from '../auth/authenticate.js';
import { loadUserProfile } from '../services/users.js';

export function userRoutes(app: FastifyInstance, deps: { db: Db }): void {
  app.get('/api/users/me', async (request) => {
    const user = requireUser(request);
    return loadUserProfile(deps.db, user.id);
  });
}
