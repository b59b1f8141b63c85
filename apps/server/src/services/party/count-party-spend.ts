import { and, eq, gte, sql } from 'drizzle-orm';
import { agents, creditTransactions, type Db } from '@tandem/db';
import { LEDGER_UNITS_PER_CREDIT } from '@tandem/shared';
import { PARTY_PURPOSE } from '../agents/agent-access.js';

/** Midnight UTC of `now`'s day: the daily party cap starts over then. */
export function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * Credits (cents) every party agent has spent since midnight UTC, from the credit ledger: the
 * agent charges (`kind = 'agent'`, negative amounts) of agents whose purpose is 'party'. Refunds
 * or corrections on those agents count against the spend.
 */
export async function partyCreditsSpentToday(db: Db, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ units: sql<string | number | null>`coalesce(-sum(${creditTransactions.amount}), 0)` })
    .from(creditTransactions)
    .innerJoin(agents, eq(agents.id, creditTransactions.agentId))
    .where(
      and(
        eq(agents.purpose, PARTY_PURPOSE),
        eq(creditTransactions.kind, 'agent'),
        gte(creditTransactions.createdAt, startOfUtcDay(now)),
      ),
    );
  return Number(row?.units ?? 0) / LEDGER_UNITS_PER_CREDIT;
}
