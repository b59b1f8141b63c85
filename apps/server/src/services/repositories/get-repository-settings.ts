import { eq } from 'drizzle-orm';
import { repositories, type Db } from '@tandem/db';
import { LEDGER_UNITS_PER_CREDIT, type RepositorySettings } from '@tandem/shared';
import { notFound } from '../../errors/app-error.js';
import { REPOSITORY_NOT_FOUND } from './repository-access.js';

type RepositoryRow = typeof repositories.$inferSelect;

/** The API's view of a repository row (platform §3); the budget goes out in hundredths of a cent. */
export function toRepositorySettings(row: RepositoryRow): RepositorySettings {
  return {
    default_model: row.defaultModel,
    default_review_model: row.defaultReviewModel,
    always_ask: row.alwaysAsk,
    always_review: row.alwaysReview,
    credit_limit: row.creditLimit * LEDGER_UNITS_PER_CREDIT,
    agents_public: row.agentsPublic,
    github_public: !row.private,
    auto_fix: row.autoFix,
    installation_id: row.installationId,
  };
}

export async function getRepositorySettings(db: Db, repositoryId: string): Promise<RepositorySettings> {
  const [row] = await db.select().from(repositories).where(eq(repositories.id, repositoryId)).limit(1);
  if (!row) throw notFound(REPOSITORY_NOT_FOUND);
  return toRepositorySettings(row);
}
