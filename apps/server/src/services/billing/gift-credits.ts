import { recordTransaction } from '@tandem/agent';
import { installations, type Db } from '@tandem/db';
import { LEDGER_UNITS_PER_CREDIT, PAYMENT_MESSAGES, type GiftCredits } from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { notFound } from '../../errors/app-error.js';

/** A product admin's gift: its own ledger kind (`gift`), shown under the Other filter. */
export async function giftCredits(db: Db, request: GiftCredits): Promise<{ credits: number }> {
  const [exists] = await db
    .select({ id: installations.id })
    .from(installations)
    .where(eq(installations.id, request.installation_id));
  if (!exists) throw notFound('Installation not found');
  const balance = await db.transaction((tx) =>
    recordTransaction(tx, {
      installationId: request.installation_id,
      amount: request.credits * LEDGER_UNITS_PER_CREDIT,
      kind: 'gift',
      description: request.description ?? PAYMENT_MESSAGES.giftDescription,
    }),
  );
  return { credits: balance };
}
