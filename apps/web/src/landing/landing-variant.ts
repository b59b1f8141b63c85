import { STORAGE_KEYS } from '@tandem/shared';

export const LANDING_VARIANTS = ['twobutton', 'loginrequest'] as const;
export type LandingVariant = (typeof LANDING_VARIANTS)[number];
export const DEFAULT_LANDING_VARIANT: LandingVariant = 'twobutton';

const isVariant = (value: string | null): value is LandingVariant =>
  value !== null && (LANDING_VARIANTS as readonly string[]).includes(value);

/**
 * The query's `landingVariant`, else the stored one, else a random pick that is then stored, so a
 * visitor keeps seeing one variant (platform §2). Invalid values are logged and ignored.
 */
export function chooseLandingVariant(
  query: string | null,
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined,
  random: () => number = Math.random,
): LandingVariant {
  if (query !== null) {
    if (isVariant(query)) {
      storage?.setItem(STORAGE_KEYS.landingVariant, query);
      return query;
    }
    console.warn(`Ignoring invalid landingVariant "${query}"`);
  }
  const stored = storage?.getItem(STORAGE_KEYS.landingVariant) ?? null;
  if (stored !== null) {
    if (isVariant(stored)) return stored;
    console.warn(`Ignoring invalid stored landingVariant "${stored}"`);
  }
  const picked = LANDING_VARIANTS[Math.floor(random() * LANDING_VARIANTS.length)] ?? DEFAULT_LANDING_VARIANT;
  storage?.setItem(STORAGE_KEYS.landingVariant, picked);
  return picked;
}
