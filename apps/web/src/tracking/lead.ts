import { STORAGE_KEYS, trackVisitResponseSchema } from '@tandem/shared';
import { apiFetch } from '../api/client';

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** This page load's POST /api/track-visit, shared: the visit tracker and the party page ask once. */
let visit: Promise<string> | null = null;

/**
 * Records the visit (platform §7 track-visit) and keeps the lead id it answers in local storage
 * (`lead_id`, and the lead data under `lead`). The server binds a new lead to this browser with a
 * signed cookie; a stored id it does not recognise as ours is replaced by a new one.
 */
export function recordVisit(data: Record<string, string>): Promise<string> {
  visit ??= apiFetch('/api/track-visit', {
    method: 'POST',
    body: { lead_id: storage()?.getItem(STORAGE_KEYS.leadId) ?? null, lead_data: data },
    schema: trackVisitResponseSchema,
  }).then(({ lead_id }) => {
    storage()?.setItem(STORAGE_KEYS.leadId, lead_id);
    storage()?.setItem(STORAGE_KEYS.lead, JSON.stringify(data));
    return lead_id;
  });
  visit.catch(() => {
    visit = null;
  });
  return visit;
}

/**
 * The visitor's lead id (party mode, workspace §6): the one this page load's visit answered, else
 * the stored one, else a new lead (platform §2: /party creates one if none is stored).
 */
export async function currentLead(): Promise<string> {
  if (visit) return visit;
  return storage()?.getItem(STORAGE_KEYS.leadId) ?? recordVisit({});
}

/** The stored lead id was not this browser's (its cookie is gone): ask for a lead again. */
export function renewLead(): Promise<string> {
  visit = null;
  return recordVisit({});
}

/** Only for tests: forget this page load's visit. */
export function resetLeadForTests(): void {
  visit = null;
}
