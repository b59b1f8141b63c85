import type { FastifyInstance } from 'fastify';
import type { Db } from '@tandem/db';
import {
  creditsQuerySchema,
  transactionsQuerySchema,
  type CreditsRemaining,
  type TransactionList,
} from '@tandem/shared';
import { requireUser } from '../auth/authenticate.js';
import { parseRequest } from '../http/validation.js';
import { creditsRemaining } from '../services/billing/credits-remaining.js';
import { listTransactions } from '../services/billing/list-transactions.js';
import { installationAccess } from '../services/settings/installation-access.js';

/** The credit ledger and balance (platform §7): any member of the installation may read them. */
export function billingRoutes(app: FastifyInstance, deps: { db: Db }): void {
  const { db } = deps;

  app.get('/api/billing/transactions', async (request) => {
    const user = requireUser(request);
    const query = parseRequest(transactionsQuerySchema, request.query, 'query');
    const access = await installationAccess(db, user.id, query.installation_id);
    const body: TransactionList = await listTransactions(db, {
      installationId: access.installationId,
      page: query.page,
      rowsPerPage: query.rows_per_page,
      agents: query.agents,
      invoices: query.invoices,
      other: query.other,
    });
    return body;
  });

  app.get('/api/billing/credits-remaining', async (request) => {
    const user = requireUser(request);
    const { installation_id } = parseRequest(creditsQuerySchema, request.query, 'query');
    const access = await installationAccess(db, user.id, installation_id);
    const body: CreditsRemaining = await creditsRemaining(db, access.installationId);
    return body;
  });
}
