import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { agents, creditTransactions, repositories, type Db } from '@tandem/db';
import { TRANSACTION_KINDS, type TransactionKind, type TransactionList } from '@tandem/shared';

/**
 * One page of an installation's ledger, newest first, filtered by kind. Paged in SQL over the
 * (installation_id, kind, created_at) index; the count is a separate index-only count.
 */
export async function listTransactions(
  db: Db,
  query: {
    installationId: number;
    page: number;
    rowsPerPage: number;
    agents: boolean;
    invoices: boolean;
    other: boolean;
  },
): Promise<TransactionList> {
  const kinds: TransactionKind[] = [];
  if (query.agents) kinds.push('agent');
  if (query.invoices) kinds.push('invoice');
  if (query.other) kinds.push('gift', 'other');
  if (!kinds.length) return { transactions: [], count: 0 };
  const where = and(
    eq(creditTransactions.installationId, query.installationId),
    // Every kind: no filter, so the plain (installation_id, created_at) index serves the page.
    kinds.length === TRANSACTION_KINDS.length ? undefined : inArray(creditTransactions.kind, kinds),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: creditTransactions.id,
        amount: creditTransactions.amount,
        description: creditTransactions.description,
        createdAt: creditTransactions.createdAt,
        kind: creditTransactions.kind,
        agentId: creditTransactions.agentId,
        invoiceId: creditTransactions.invoiceId,
        repoName: repositories.fullName,
      })
      .from(creditTransactions)
      .leftJoin(agents, eq(agents.id, creditTransactions.agentId))
      .leftJoin(repositories, eq(repositories.id, agents.repositoryId))
      .where(where)
      .orderBy(desc(creditTransactions.createdAt), desc(creditTransactions.seq))
      .limit(query.rowsPerPage)
      .offset((query.page - 1) * query.rowsPerPage),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(creditTransactions)
      .where(where),
  ]);
  return {
    count: Number(total?.count ?? 0),
    transactions: rows.map((row) => ({
      id: row.id,
      amount: Number(row.amount),
      description: row.description,
      created_at: row.createdAt.toISOString(),
      kind: (TRANSACTION_KINDS as readonly string[]).includes(row.kind)
        ? (row.kind as TransactionKind)
        : 'other',
      trajectory_id: row.agentId,
      repo_name: row.repoName,
      invoice_id: row.invoiceId,
    })),
  };
}
