import { STORAGE_KEYS } from '@tandem/shared';

/** The lead id visit tracking stored for this browser, if any (storage may be blocked). */
export function storedLeadId(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.leadId);
  } catch {
    return null;
  }
}
