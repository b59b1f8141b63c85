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

/**
 * What the form preselects when the user has no valid preference: the server's default
 * (TANDEM_DEFAULT_MODEL, or the demo model on a server without providers) when it can run here,
 * else the first core-recommended model that can, else any model that can. A model that cannot run
 * is never preselected, unless none can (the form then says how to configure one).
 */
export function defaultModel(
  models: readonly AvailableModel[],
  admin: boolean,
  serverDefault: string = DEFAULT_MODEL_KEY,
): string {
  if (isSelectable(serverDefault, models, admin)) return serverDefault;
  return (
    models.find((m) => m.core_recommended && isSelectable(m.key, models, admin))?.key ??
    models.find((m) => isSelectable(m.key, models, admin))?.key ??
    serverDefault
  );
}

/**
 * The stored preference when it is still a valid choice, else the repository's default when it
 * can run here, else the default above (decisions.md "Model preselection").
 */
export function chooseModel(
  stored: string | null,
  models: readonly AvailableModel[],
  admin: boolean,
  defaults: { server?: string; repository?: string | null } = {},
): string {
  if (stored && isSelectable(stored, models, admin)) return stored;
  if (defaults.repository && isSelectable(defaults.repository, models, admin)) return defaults.repository;
  return defaultModel(models, admin, defaults.server);
}

/**
 * As chooseModel, for the reviewer: a stored empty string means 'Off' (null). A reviewer that
 * cannot run here is never preselected: 'Off' instead.
 */
export function chooseReviewModel(
  stored: string | null,
  models: readonly AvailableModel[],
  admin: boolean,
  defaults: { server?: string; repository?: string | null } = {},
): string | null {
  if (stored === REVIEW_OFF) return null;
  if (stored && isSelectable(stored, models, admin)) return stored;
  // The repository's 'None': its agents get no reviewer unless the user chose one.
  if (defaults.repository === REVIEW_MODEL_NONE) return null;
  for (const key of [defaults.repository, defaults.server ?? DEFAULT_REVIEW_MODEL_KEY]) {
    if (key && isSelectable(key, models, admin)) return key;
  }
  return null;
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
