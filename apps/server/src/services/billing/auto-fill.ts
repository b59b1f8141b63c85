import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { autoFillWanted } from '@tandem/agent';
import { billingAccounts, installations, prepared, type Db } from '@tandem/db';
import type { AutoFillSettings, AutoFillState } from '@tandem/shared';
import type { Logger } from 'pino';
import type { BillingProvider } from '../../billing/billing-setup.js';
import { AppError } from '../../errors/app-error.js';
import { billingAccount } from './billing-account.js';
import { chargeInvoice } from './charge-invoice.js';

/** A claimed auto-fill whose webhook never came is claimable again after this long. */
const STALE_CLAIM = '15 minutes';

export async function getAutoFill(db: Db, installationId: number): Promise<AutoFillState> {
  const account = await billingAccount(db, installationId);
  return {
    enabled: account.autoFillEnabled,
    threshold: account.autoFillThreshold,
    amount: account.autoFillAmount,
    last_error: account.autoFillError,
  };
}

/** Saving the settings clears a failed charge's message, so auto-fill may try again. */
export async function updateAutoFill(
  db: Db,
  installationId: number,
  settings: AutoFillSettings,
): Promise<AutoFillState> {
  await billingAccount(db, installationId);
  await db
    .update(billingAccounts)
    .set({
      autoFillEnabled: settings.enabled,
      autoFillThreshold: settings.threshold,
      autoFillAmount: settings.amount,
      autoFillError: null,
      updatedAt: sql`now()`,
    })
    .where(eq(billingAccounts.installationId, installationId));
  return getAutoFill(db, installationId);
}

/**
 * Tops an installation up when its balance has fallen below the auto-fill threshold. Called after
 * every spend; many concurrent spenders crossing the threshold charge once, because only one
 * conditional UPDATE can claim the crossing (`auto_fill_pending_at` is null → now; the row lock
 * makes the others re-check and find it set). The claim is released by the paid invoice's
 * webhook, or with the provider's message when the charge fails: a failed auto-fill is shown, not
 * retried, until the settings are saved again.
 */
export class AutoFill {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly billing: BillingProvider | undefined,
    private readonly logger: Pick<Logger, 'warn' | 'error'>,
    /** False in sunset mode once buying has closed: nothing is charged. */
    private readonly buyingAllowed: () => boolean = () => true,
  ) {}

  /** Fire and forget: never throws into the spender. */
  check(installationId: number): void {
    if (!this.billing || !this.buyingAllowed()) return;
    const run = this.run(installationId, this.billing)
      .catch((error: unknown) => this.logger.error({ err: error, installationId }, 'auto-fill failed'))
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /** Resolves when the checks started so far have finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  private async run(installationId: number, billing: BillingProvider): Promise<void> {
    // Asked after every model call of every agent: built once (prepared.ts).
    const [claim] = await prepared(this.db, 'claim_auto_fill', (db, name) => {
      const installationId = sql.placeholder('installationId');
      return db
        .update(billingAccounts)
        .set({ autoFillPendingAt: sql`now()` })
        .where(
          and(
            eq(billingAccounts.installationId, installationId),
            or(
              isNull(billingAccounts.autoFillPendingAt),
              lt(billingAccounts.autoFillPendingAt, sql`now() - interval '${sql.raw(STALE_CLAIM)}'`),
            ),
            autoFillWanted(
              sql`(select ${installations.creditBalance} from ${installations} where ${installations.id} = ${installationId})`,
            ),
          ),
        )
        .returning({ amount: billingAccounts.autoFillAmount, claimedAt: billingAccounts.autoFillPendingAt })
        .prepare(name);
    }).execute({ installationId });
    if (!claim) return;
    try {
      await chargeInvoice(this.db, billing, {
        installationId,
        credits: claim.amount,
        purpose: 'auto_fill',
        key: `auto-fill-${installationId}-${claim.claimedAt!.getTime()}`,
      });
    } catch (error) {
      const message = error instanceof AppError ? error.message : 'An error occurred';
      if (!(error instanceof AppError))
        this.logger.error({ err: error, installationId }, 'auto-fill charge failed');
      await this.db
        .update(billingAccounts)
        .set({ autoFillPendingAt: null, autoFillError: message, updatedAt: sql`now()` })
        .where(eq(billingAccounts.installationId, installationId));
    }
  }
}
