import { z } from 'zod';

/**
 * The code-host summaries of workspace §3: the only shapes the rest of the product sees of GitHub's
 * responses, so github.com, GitHub Enterprise and the local code host all look the same past here.
 */

export const commitSummarySchema = z.object({ title: z.string(), sha: z.string() });
export type CommitSummary = z.infer<typeof commitSummarySchema>;

export const pullSummarySchema = z.object({
  title: z.string(),
  body: z.string(),
  headBranch: z.string(),
  baseBranch: z.string(),
  baseSha: z.string(),
  commits: z.number().int(),
  mergeCommitSha: z.string().nullable(),
  /** null while GitHub is still computing mergeability. */
  mergeable: z.boolean().nullable(),
});
export type PullSummary = z.infer<typeof pullSummarySchema>;

export const issueSummarySchema = z.object({
  title: z.string(),
  body: z.string(),
  comments: z.number().int(),
});
export type IssueSummary = z.infer<typeof issueSummarySchema>;

export const branchComparisonSchema = z.object({
  /** The sha of the base's tip commit (GitHub's `base_commit`). */
  baseCommit: z.string(),
  commits: z.array(commitSummarySchema),
  aheadBy: z.number().int(),
  behindBy: z.number().int(),
  filesChanged: z.number().int(),
  totalAdditions: z.number().int(),
  totalDeletions: z.number().int(),
});
export type BranchComparison = z.infer<typeof branchComparisonSchema>;

/** Workspace §4 "File read states"; a missing file is an empty result, not an error. */
export const fileReadResultSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), contents: z.string() }),
  z.object({ status: z.literal('not_found'), contents: z.literal('') }),
  z.object({ status: z.literal('binary') }),
  z.object({ status: z.literal('too_large') }),
  /** httpStatus lets callers pick the spec's file-fetch message (401, 403, 429, other). */
  z.object({ status: z.literal('error'), message: z.string(), httpStatus: z.number().int().optional() }),
]);
export type FileReadResult = z.infer<typeof fileReadResultSchema>;

export const branchEntrySchema = z.object({ name: z.string(), committedDate: z.string().nullable() });
export type BranchEntry = z.infer<typeof branchEntrySchema>;

export const commitDiffSchema = z.object({
  filename: z.string(),
  previousFilename: z.string().nullable(),
  status: z.enum(['added', 'removed', 'renamed', 'modified']),
  additions: z.number().int(),
  deletions: z.number().int(),
});
export type CommitDiff = z.infer<typeof commitDiffSchema>;

/** Repository paths of the `.sh` scripts directly inside each script folder. */
export const scriptListsSchema = z.object({
  run: z.array(z.string()),
  auto: z.array(z.string()),
  preview: z.array(z.string()),
});
export type ScriptLists = z.infer<typeof scriptListsSchema>;

export const authenticatedUserSchema = z.object({
  id: z.number().int(),
  login: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});
export type AuthenticatedUser = z.infer<typeof authenticatedUserSchema>;

export const accountSummarySchema = z.object({
  id: z.number().int(),
  login: z.string(),
  type: z.enum(['User', 'Organization']),
  avatarUrl: z.string().nullable(),
});
export type AccountSummary = z.infer<typeof accountSummarySchema>;

export const installationSummarySchema = z.object({ id: z.number().int(), account: accountSummarySchema });
export type InstallationSummary = z.infer<typeof installationSummarySchema>;

export const installationRepositorySchema = z.object({
  id: z.number().int(),
  fullName: z.string(),
  private: z.boolean(),
  defaultBranch: z.string(),
});
export type InstallationRepository = z.infer<typeof installationRepositorySchema>;

export const orgRoleSchema = z.enum(['admin', 'member']);
export type OrgRole = z.infer<typeof orgRoleSchema>;

/** Workspace §6: write permission means 'admin' or 'write'. */
export const repoPermissionSchema = z.enum(['admin', 'write', 'read', 'none']);
export type RepoPermission = z.infer<typeof repoPermissionSchema>;
