import { agents, billingAccounts, creditTransactions, installations, prepared, type Db } from '@tandem/db';
import { FREE_CREDITS_PER_INSTALLATION, LEDGER_UNITS_PER_CREDIT } from '@tandem/shared';
import { eq, sql, type SQL } from 'drizzle-orm';

export type LedgerKind = 'agent' | 'invoice' | 'gift' | 'other';

/** Any executor that can run SQL: the database or an open transaction. */
type Executor = Pick<Db, 'insert' | 'update' | 'select'>;

/**
 * Changes a balance by `amount` units and records why, in the caller's transaction. The balance is
 * changed by one conditional UPDATE (a row lock, no read-modify-write), so concurrent charges never
 * lose an update.
 */
export async function recordTransaction(
  tx: Executor,
  entry: {
    installationId: number;
    amount: number;
    kind: LedgerKind;
    agentId?: string | null;
    /** The provider's invoice, for `invoice` rows (unique: an invoice credits once). */
    invoiceId?: string | null;
    description: string;
  },
): Promise<number> {
  const [row] = await tx
    .update(installations)
    .set({ creditBalance: sql`${installations.creditBalance} + ${entry.amount}` })
    .where(eq(installations.id, entry.installationId))
    .returning({ balance: installations.creditBalance });
  if (!row) throw new Error(`Installation ${entry.installationId} does not exist`);
  await tx.insert(creditTransactions).values({
    installationId: entry.installationId,
    amount: entry.amount,
    kind: entry.kind,
    agentId: entry.agentId ?? null,
    invoiceId: entry.invoiceId ?? null,
    description: entry.description,
  });
  return Number(row.balance);
}

/** The 3000 free credits of a new installation, granted exactly once. */
export async function grantFreeCredits(db: Db, installationId: number): Promise<void> {
  await db.transaction(async (tx) => {
    // The installation row's lock makes a webhook and a sign-in arriving together grant once.
    await tx
      .select({ id: installations.id })
      .from(installations)
      .where(eq(installations.id, installationId))
      .for('update');
    const [already] = await tx
      .select({ id: creditTransactions.id })
      .from(creditTransactions)
      .where(
        sql`${creditTransactions.installationId} = ${installationId} and ${creditTransactions.description} = ${FREE_CREDITS_DESCRIPTION}`,
      )
      .limit(1);
    if (already) return;
    await recordTransaction(tx, {
      installationId,
      amount: FREE_CREDITS_PER_INSTALLATION * LEDGER_UNITS_PER_CREDIT,
      kind: 'other',
      description: FREE_CREDITS_DESCRIPTION,
    });
  });
}

export const FREE_CREDITS_DESCRIPTION = 'Free credits for new installations';

export interface ChargeResult {
  /** The installation's balance after the charge, in units. */
  balance: number;
  /** Units this agent has spent since its last user message. */
  spentSinceMessage: number;
  /**
   * Whether an auto-fill may be due: the installation has it on, without a failed attempt, and the
   * balance after this charge is below its threshold. Only then is billing told (its claim checks
   * all of this again, atomically): every model call of every agent is charged, and an installation
   * without auto-fill, the usual case, then costs no second statement (issue 15).
   */
  autoFillDue: boolean;
}

/**
 * Charges one model call to the agent's installation and the agent's own counters, atomically: one
 * statement whose data-modifying CTEs change the balance (one conditional UPDATE, as in
 * recordTransaction), record the ledger row and add to the agent's counters. Not a transaction of
 * three: on the embedded database a transaction holds every other query off for its round trips,
 * and every model call of every agent is charged (issue 15).
 */
export async function chargeAgentCall(
  db: Db,
  charge: { installationId: number; agentId: string; units: number; curTokens: number; description: string },
): Promise<ChargeResult> {
  const [row] = await prepared(db, 'charge_agent_call', (d, name) =>
    chargeStatement(d).prepare(name),
  ).execute(charge);
  return chargeResult(row, charge.installationId);
}

/**
 * Whether a balance (in units) calls for an auto-fill, as a condition on the installation's
 * `billing_accounts` row: auto-fill on, no failed attempt waiting for new settings, and the balance
 * below the threshold. The one rule for both the charge's `autoFillDue` and billing's claim
 * (apps/server/src/services/billing/auto-fill.ts), so the hint never says no where the claim would
 * buy.
 */
export function autoFillWanted(balance: SQL): SQL {
  return sql`(${billingAccounts.autoFillEnabled} and ${billingAccounts.autoFillError} is null
    and ${balance} < ${billingAccounts.autoFillThreshold}::bigint * ${LEDGER_UNITS_PER_CREDIT})`;
}

/**
 * chargeAgentCall's statement, with placeholders named after the charge's fields (`installationId`,
 * `agentId`, `units`, `curTokens`, `description`). An answer's charge follows the same rules for
 * many rows at once (runtime/answer-record.ts): change the two together.
 */
function chargeStatement(db: Db) {
  const units = sql.placeholder('units');
  const installation = db.$with('charged_installation').as(
    db
      .update(installations)
      .set({ creditBalance: sql`${installations.creditBalance} - ${units}` })
      .where(eq(installations.id, sql.placeholder('installationId')))
      .returning({ balance: installations.creditBalance }),
  );
  const ledger = db.$with('ledger_entry').as(
    db
      .insert(creditTransactions)
      .values({
        installationId: sql.placeholder('installationId'),
        amount: sql`-${units}::bigint`,
        kind: 'agent',
        agentId: sql.placeholder('agentId'),
        invoiceId: null,
        description: sql.placeholder('description'),
      })
      .returning({ id: creditTransactions.id }),
  );
  const agent = db.$with('charged_agent').as(
    db
      .update(agents)
      .set({
        creditsSpent: sql`${agents.creditsSpent} + ${units}`,
        spentSinceMessage: sql`${agents.spentSinceMessage} + ${units}`,
        curTokens: sql`${sql.placeholder('curTokens')}`,
      })
      .where(eq(agents.id, sql.placeholder('agentId')))
      .returning({ spent: agents.spentSinceMessage }),
  );
  const autoFillDue = sql<boolean>`exists (select 1 from ${billingAccounts}
    where ${billingAccounts.installationId} = ${sql.placeholder('installationId')}
      and ${autoFillWanted(sql`(select ${installation.balance} from ${installation})`)})`;
  return db
    .with(installation, ledger, agent)
    .select({
      balance: installation.balance,
      spent: sql<string | number | null>`(select ${agent.spent} from ${agent})`,
      autoFillDue,
    })
    .from(installation);
}

/** A charge statement's row as the caller sees it; no row: the installation does not exist. */
export function chargeResult(
  row: { balance: unknown; spent: unknown; autoFillDue: unknown } | undefined,
  installationId: number,
): ChargeResult {
  // The ledger row's foreign keys fail the whole statement first (no such installation or agent).
  if (!row) throw new Error(`Installation ${installationId} does not exist`);
  return {
    balance: Number(row.balance),
    spentSinceMessage: Number(row.spent ?? 0),
    autoFillDue: row.autoFillDue === true,
  };
}

export async function installationBalance(db: Db, installationId: number): Promise<number> {
  const [row] = await db
    .select({ balance: installations.creditBalance })
    .from(installations)
    .where(eq(installations.id, installationId));
  return Number(row?.balance ?? 0);
}
