import { asc, eq } from 'drizzle-orm';
import { leads, users, type Db } from '@tandem/db';
import type { AdminLeadInfo } from '@tandem/shared';
import { notFound } from '../../errors/app-error.js';

/**
 * What we know about how a user arrived (GET /api/admin/user/{user_id}/lead-info): their first
 * lead's tracked fields (utm_*, gclid, landing variant…), then when that lead was first seen and
 * last updated and when the user signed up (keys ending in _at are dates). Fields a visitor sent
 * are returned as text, never interpreted. No lead: empty fields.
 */
export async function getLeadInfo(db: Db, userId: string): Promise<AdminLeadInfo> {
  const [user] = await db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound('User not found');
  const [lead] = await db
    .select()
    .from(leads)
    .where(eq(leads.userId, userId))
    .orderBy(asc(leads.createdAt), asc(leads.id))
    .limit(1);
  if (!lead) return { user_id: userId, lead_id: null, fields: {} };
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(lead.data)) {
    if (typeof value === 'string') fields[key] = value;
  }
  fields.first_seen_at = lead.createdAt.toISOString();
  fields.updated_at = lead.updatedAt.toISOString();
  fields.signed_up_at = user.createdAt.toISOString();
  return { user_id: userId, lead_id: lead.id, fields };
}
