import { INSTALLATION_HEADER, transactionListSchema } from '@tandem/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

export interface TransactionsRequest {
  installationId: number;
  page: number;
  rowsPerPage: number;
  agents: boolean;
  invoices: boolean;
  other: boolean;
}

/** One page of the ledger (GET /api/billing/transactions); the last page stays while the next loads. */
export function useTransactions(request: TransactionsRequest | null) {
  return useQuery({
    queryKey: queryKeys.transactions(request ?? {}),
    queryFn: () => {
      const r = request!;
      const query = new URLSearchParams({
        installation_id: String(r.installationId),
        page: String(r.page),
        rows_per_page: String(r.rowsPerPage),
        agents: String(r.agents),
        invoices: String(r.invoices),
        other: String(r.other),
      });
      return apiFetch(`/api/billing/transactions?${query}`, {
        schema: transactionListSchema,
        headers: { [INSTALLATION_HEADER]: String(r.installationId) },
      });
    },
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
}
