/**
 * Query keys of the settings and billing hooks, in one place so a mutation invalidates exactly
 * what it changed. (Older features still keep theirs beside their hooks; move them here as they
 * are touched.)
 */
export const queryKeys = {
  userSettings: ['settings', 'user'] as const,
  usersTable: (installationId: number | null) => ['settings', 'users-table', installationId] as const,
  credits: (installationId: number | null) => ['billing', 'credits', installationId] as const,
  transactionsAll: ['billing', 'transactions'] as const,
  transactions: (request: object) => ['billing', 'transactions', request] as const,
};
