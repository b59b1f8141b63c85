import {
  DEFAULT_MODEL_KEY,
  DEFAULT_REVIEW_MODEL_KEY,
  REVIEW_MODEL_NONE,
  type ModelList,
} from '@tandem/shared';
import { readStored, writeStored } from '../../lib/storage';

/** Model choice in the new-agent form (workspace §5, §6, §9). */
export type AvailableModel = ModelList['models'][number];

export const PREFERRED_MODEL_KEY = 'preferredModel';
export const PREFERRED_REVIEW_MODEL_KEY = 'preferredReviewModel';
/** The review selector's 'Off': the agent gets no automatic reviewer (`review_model: null`). */
export const REVIEW_OFF = '';

/** A model this viewer may pick: known, runnable here, and admin-only ones for admins only. */
export function isSelectable(key: string, models: readonly AvailableModel[], admin: boolean): boolean {
  const model = models.find((m) => m.key === key);
  return model !== undefined && model.available && (admin || !model.admin_only);
}

/** The first core-recommended model that can run here, else Sonnet 4.5. */
export function defaultModel(models: readonly AvailableModel[], admin: boolean): string {
  return (
    models.find((m) => m.core_recommended && isSelectable(m.key, models, admin))?.key ?? DEFAULT_MODEL_KEY
  );
}

/** The stored preference when it is still a valid choice, else the default. */
export function chooseModel(
  stored: string | null,
  models: readonly AvailableModel[],
  admin: boolean,
): string {
  return stored && isSelectable(stored, models, admin) ? stored : defaultModel(models, admin);
}

/** As chooseModel, for the reviewer: a stored empty string means 'Off' (null). */
export function chooseReviewModel(
  stored: string | null,
  models: readonly AvailableModel[],
  admin: boolean,
): string | null {
  if (stored === REVIEW_OFF) return null;
  return stored && isSelectable(stored, models, admin) ? stored : DEFAULT_REVIEW_MODEL_KEY;
}

/** A repository's default model when this viewer may run it here, else null (fall back). */
export function repositoryModel(
  key: string | null | undefined,
  models: readonly AvailableModel[],
  admin: boolean,
): string | null {
  return key && isSelectable(key, models, admin) ? key : null;
}

/**
 * A repository's default reviewer: 'none' is no reviewer (null); a runnable key is itself;
 * 'Default' or an unusable key is undefined, so the user's stored preference applies.
 */
export function repositoryReviewModel(
  key: string | null | undefined,
  models: readonly AvailableModel[],
  admin: boolean,
): string | null | undefined {
  if (key === REVIEW_MODEL_NONE) return null;
  return key && isSelectable(key, models, admin) ? key : undefined;
}

export interface ModelMenu {
  recommended: AvailableModel[];
  others: AvailableModel[];
  /** Shown under an 'Admin' subheader; always empty for non-admins. */
  adminOnly: AvailableModel[];
}

/** The selector's options: recommended first, then the rest, then admin-only models for admins. */
export function modelMenu(
  models: readonly AvailableModel[],
  kind: 'core' | 'review',
  admin: boolean,
): ModelMenu {
  const recommended = (m: AvailableModel) => (kind === 'core' ? m.core_recommended : m.review_recommended);
  const general = models.filter((m) => !m.admin_only);
  const adminOnly = admin ? models.filter((m) => m.admin_only) : [];
  return {
    recommended: general.filter(recommended),
    others: general.filter((m) => !recommended(m)),
    adminOnly: [...adminOnly.filter(recommended), ...adminOnly.filter((m) => !recommended(m))],
  };
}

export function readPreferredModel(): string | null {
  return readStored(PREFERRED_MODEL_KEY);
}

export function readPreferredReviewModel(): string | null {
  return readStored(PREFERRED_REVIEW_MODEL_KEY);
}

export function storePreferredModel(key: string): void {
  writeStored(PREFERRED_MODEL_KEY, key);
}

/** 'Off' is stored as an empty string (workspace §5). */
export function storePreferredReviewModel(key: string | null): void {
  writeStored(PREFERRED_REVIEW_MODEL_KEY, key ?? REVIEW_OFF);
}
