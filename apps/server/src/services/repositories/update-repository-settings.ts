import { eq } from 'drizzle-orm';
import { repositories, type Db } from '@tandem/db';
import {
  LEDGER_UNITS_PER_CREDIT,
  REVIEW_MODEL_NONE,
  type RepositorySettings,
  type UpdateRepositorySettings,
} from '@tandem/shared';
import { notFound, ValidationError } from '../../errors/app-error.js';
import { REPOSITORY_NOT_FOUND } from './repository-access.js';
import { toRepositorySettings } from './get-repository-settings.js';

/** Which model keys this viewer may name as a default: known here and runnable on this server. */
export interface ModelChoices {
  selectable(key: string): boolean;
}

function checkModel(field: string, key: string, models: ModelChoices): void {
  if (!models.selectable(key)) {
    throw new ValidationError([
      { loc: ['body', field], msg: `Model "${key}" is not available on this server`, type: 'value_error' },
    ]);
  }
}

/**
 * Applies the one changed field of a PATCH (the schema guarantees exactly one) in a single UPDATE,
 * so it either lands whole or not at all, and never overwrites a field someone else just changed.
 */
export async function updateRepositorySettings(
  db: Db,
  repositoryId: string,
  change: UpdateRepositorySettings,
  models: ModelChoices,
): Promise<RepositorySettings> {
  const set: Partial<typeof repositories.$inferInsert> = {};
  if (change.default_model !== undefined) {
    if (change.default_model !== null) checkModel('default_model', change.default_model, models);
    set.defaultModel = change.default_model;
  }
  if (change.default_review_model !== undefined) {
    const key = change.default_review_model;
    if (key !== null && key !== REVIEW_MODEL_NONE) checkModel('default_review_model', key, models);
    set.defaultReviewModel = key;
  }
  if (change.always_ask !== undefined) set.alwaysAsk = change.always_ask;
  if (change.always_review !== undefined) set.alwaysReview = change.always_review;
  if (change.credit_limit !== undefined) set.creditLimit = change.credit_limit / LEDGER_UNITS_PER_CREDIT;
  if (change.agents_public !== undefined) set.agentsPublic = change.agents_public;
  if (change.auto_fix !== undefined) set.autoFix = change.auto_fix;
  const [row] = await db
    .update(repositories)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(repositories.id, repositoryId))
    .returning();
  if (!row) throw notFound(REPOSITORY_NOT_FOUND);
  return toRepositorySettings(row);
}
