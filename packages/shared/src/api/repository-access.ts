import { z } from 'zod';

/**
 * The caller's permission on a repository as the code host reports it (platform §6). No level at all
 * (the code host's 'none') is never sent: every repository-scoped call answers 404 instead.
 */
export const accessLevelSchema = z.enum(['read', 'write', 'admin']);
export type AccessLevel = z.infer<typeof accessLevelSchema>;

/** GET /api/repositories/{repo_owner}/{repo_name}/access */
export const repositoryAccessSchema = z.object({ access_level: accessLevelSchema });
export type RepositoryAccess = z.infer<typeof repositoryAccessSchema>;

const RANK: Record<AccessLevel, number> = { read: 0, write: 1, admin: 2 };

/** Whether `level` grants at least `needed` (admin ⊃ write ⊃ read). */
export function hasAccess(level: AccessLevel | null | undefined, needed: AccessLevel): boolean {
  return level != null && RANK[level] >= RANK[needed];
}

/** Owner and name in a repository path: what the code host allows, nothing that could climb a path. */
export const repoPathParamsSchema = z.object({
  repo_owner: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/, 'Invalid repository owner'),
  repo_name: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9._-]+$/, 'Invalid repository name')
    .refine((name) => name !== '.' && name !== '..', 'Invalid repository name'),
});
export type RepoPathParams = z.infer<typeof repoPathParamsSchema>;
