import { z } from 'zod';

/** Workspace §2's base-branch picker: the spec's text when the branches cannot be read. */
export const BRANCH_DATA_ERROR = 'Error fetching branch data';

/** GET /api/repositories/{owner}/{repo}/branches: newest commit first. */
export const repositoryBranchesSchema = z.object({
  default_branch: z.string(),
  branches: z.array(z.object({ name: z.string(), committed_date: z.string().nullable() })),
});
export type RepositoryBranches = z.infer<typeof repositoryBranchesSchema>;
