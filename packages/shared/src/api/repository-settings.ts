import { z } from 'zod';
import { LEDGER_UNITS_PER_CREDIT } from '../constants.js';

/**
 * Per-agent budget bounds in whole cents (credits), inclusive (platform §5, §9: "named constants,
 * values not shown"; see docs/decisions.md). The API carries the budget in hundredths of a cent,
 * like every ledger amount; the page shows whole cents.
 */
export const AGENT_BUDGET_MIN_CENTS = 10;
export const AGENT_BUDGET_MAX_CENTS = 100_000;

/** The review-model setting's 'None': agents of this repository get no automatic reviewer. */
export const REVIEW_MODEL_NONE = 'none';

export const REPOSITORY_SETTINGS_MESSAGES = {
  updateFailed: 'There was an error updating the repository settings. Please try again later.',
  writeNeeded: 'You need write access to this repository to change its settings.',
  oneField: 'Change exactly one setting at a time',
  wholeCents: 'The budget must be a whole number of cents',
} as const;

/** 'Minimum {n}' / 'Maximum {n}' for a budget in whole cents; null when it is within bounds. */
export function budgetError(cents: number): string | null {
  if (cents < AGENT_BUDGET_MIN_CENTS) return `Minimum ${AGENT_BUDGET_MIN_CENTS}`;
  if (cents > AGENT_BUDGET_MAX_CENTS) return `Maximum ${AGENT_BUDGET_MAX_CENTS}`;
  return null;
}

/** GET /api/settings/repository/{repo_owner}/{repo_name} (platform §3 Repository settings). */
export const repositorySettingsSchema = z.object({
  /** A model key, or null for the server's default model. */
  default_model: z.string().nullable(),
  /** A model key, null for the product's default reviewer, or 'none' for no reviewer. */
  default_review_model: z.string().nullable(),
  always_ask: z.boolean(),
  always_review: z.boolean(),
  /** Per-agent budget since the last user message, in hundredths of a cent. */
  credit_limit: z.number().int(),
  agents_public: z.boolean(),
  /** Whether the repository is public on the code host (read-only here). */
  github_public: z.boolean(),
  auto_fix: z.boolean(),
  installation_id: z.number().int(),
});
export type RepositorySettings = z.infer<typeof repositorySettingsSchema>;

const modelKey = z.string().min(1).max(200);

const creditLimit = z
  .number()
  .int()
  .refine((units) => units % LEDGER_UNITS_PER_CREDIT === 0, {
    message: REPOSITORY_SETTINGS_MESSAGES.wholeCents,
    abort: true,
  })
  .superRefine((units, ctx) => {
    const problem = budgetError(units / LEDGER_UNITS_PER_CREDIT);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * PATCH /api/settings/repository/{repo_owner}/{repo_name}: exactly one changed field (platform §7),
 * so two people editing different settings never overwrite each other's change.
 */
export const updateRepositorySettingsSchema = z
  .object({
    default_model: modelKey.nullable(),
    default_review_model: modelKey.nullable(),
    always_ask: z.boolean(),
    always_review: z.boolean(),
    credit_limit: creditLimit,
    agents_public: z.boolean(),
    auto_fix: z.boolean(),
  })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length === 1, REPOSITORY_SETTINGS_MESSAGES.oneField);
export type UpdateRepositorySettings = z.infer<typeof updateRepositorySettingsSchema>;
