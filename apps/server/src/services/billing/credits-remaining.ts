import { installationBalance } from '@tandem/agent';
import type { Db } from '@tandem/db';
import type { CreditsRemaining } from '@tandem/shared';

/** The installation's balance in ledger units (one primary-key read). */
export async function creditsRemaining(db: Db, installationId: number): Promise<CreditsRemaining> {
  return { credits: await installationBalance(db, installationId) };
}
