import { asc, eq } from 'drizzle-orm';
import { leads, users, type Db } from '@tandem/db';
import type { AdminLeadInfo } from '@tandem/shared';
import { notFound } from '../../errors/app-error.js';

/** A user has a lead per browser they arrived in; more than this many is not a person. */
const MAX_LEADS = 50;

/**
 * What we know about how a user arrived (GET /api/admin/user/{user_id}/lead-info). Their leads'
 * tracked fields (utm_*, gclid, landing variant…) merged first touch first: each key keeps the
 * value of the earliest lead that has it, as the users table's utm_source does. Then when they
 * were first seen, when a lead last changed, and when they signed up (keys ending in _at are
 * dates). Fields a visitor sent are returned as text, never interpreted. No lead: empty fields.
 */
export async function getLeadInfo(db: Db, userId: string): Promise<AdminLeadInfo> {
  const [user] = await db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound('User not found');
  const theirs = await db
    .select()
    .from(leads)
    .where(eq(leads.userId, userId))
    .orderBy(asc(leads.createdAt), asc(leads.id))
    .limit(MAX_LEADS);
  const first = theirs[0];
  if (!first) return { user_id: userId, lead_id: null, fields: {} };
  const fields: Record<string, string> = {};
  for (const lead of theirs) {
    for (const [key, value] of Object.entries(lead.data)) {
      if (typeof value === 'string' && value !== '' && !(key in fields)) fields[key] = value;
    }
  }
  const updated = Math.max(...theirs.map((lead) => lead.updatedAt.getTime()));
  fields.first_seen_at = first.createdAt.toISOString();
  fields.updated_at = new Date(updated).toISOString();
  fields.signed_up_at = user.createdAt.toISOString();
  return { user_id: userId, lead_id: first.id, fields };
}
