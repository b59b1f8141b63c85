import { DEFAULT_REVIEW_MODEL_KEY, REVIEW_MODEL_NONE } from '@tandem/shared';

/**
 * The model and reviewer a new agent gets (platform §3 Repository settings): what the request
 * names, else the repository's default when this viewer may run it here, else the product's.
 * A default that no longer runs (its key was removed from the server) falls back quietly rather
 * than failing every new agent of the repository.
 */
export function resolveAgentModels(
  request: { model?: string | null | undefined; review_model?: string | null | undefined },
  repository: { defaultModel: string | null; defaultReviewModel: string | null },
  selectable: (key: string) => boolean,
): { model: string | null; reviewModel: string | null } {
  const repoModel =
    repository.defaultModel && selectable(repository.defaultModel) ? repository.defaultModel : null;
  const model = request.model ?? repoModel;
  if (request.review_model !== undefined) return { model, reviewModel: request.review_model || null };
  const repoReview = repository.defaultReviewModel;
  if (repoReview === REVIEW_MODEL_NONE) return { model, reviewModel: null };
  return {
    model,
    reviewModel: repoReview && selectable(repoReview) ? repoReview : DEFAULT_REVIEW_MODEL_KEY,
  };
}
