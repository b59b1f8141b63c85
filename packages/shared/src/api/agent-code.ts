import { z } from 'zod';
import { apiTimestampSchema } from './timestamp.js';

/**
 * Code-host reads the workspace makes through the server (workspace §7): the server holds the
 * installation token, so the browser never talks to the code host directly. Each call names the
 * agent (`trajectory_id`) and is allowed to whoever may view that agent.
 */

/** A file at one ref, in the spec's five read states (workspace §4 "File read states"). */
export const fileContentSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), contents: z.string() }),
  /** A 404 reads as an empty file (a file the range adds or removes). */
  z.object({ status: z.literal('not_found'), contents: z.literal('') }),
  z.object({ status: z.literal('binary') }),
  z.object({ status: z.literal('too_large') }),
  z.object({ status: z.literal('error'), message: z.string() }),
]);
export type FileContent = z.infer<typeof fileContentSchema>;

/** GET /api/agent/file?trajectory_id=&repository_name=&path=&ref= */
export const agentFileQuerySchema = z.object({
  trajectory_id: z.string().uuid('Unknown agent'),
  repository_name: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'Invalid Repository Name'),
  path: z.string().min(1).max(4096),
  ref: z.string().max(255).optional(),
});
/**
 * The file, or an HTTP error whose status picks the spec's file-fetch message (§8): 401, 403 and
 * 429 are passed on from the code host; anything else is a 502.
 */
export const agentFileResponseSchema = fileContentSchema;

/** One commit of the agent's branch, oldest first. */
export const branchCommitSchema = z.object({ sha: z.string(), title: z.string() });
export type BranchCommit = z.infer<typeof branchCommitSchema>;

/** GET /api/agent/branch?trajectory_id=&source_id= : what the diff window's header shows. */
export const agentBranchQuerySchema = z.object({
  trajectory_id: z.string().uuid('Unknown agent'),
  source_id: z.string().uuid('Branch subscription not found'),
});
export const agentBranchResponseSchema = z.object({
  repository_name: z.string(),
  branch: z.string(),
  base_branch: z.string(),
  /** Whether the branch exists on the code host yet (an agent that has not pushed has none). */
  pushed: z.boolean(),
  /** The open or closed pull request of the branch, if any. */
  pull_request: z
    .object({ number: z.number().int(), title: z.string(), body: z.string(), state: z.string() })
    .nullable(),
  /** The pull-request draft (first line title, the rest body) when there is no pull request. */
  draft_title: z.string(),
  draft_body: z.string(),
  /** Commits on the branch that the base does not have, oldest first. */
  commits: z.array(branchCommitSchema),
  /** The merge base of the branch and its base: the "from" end of the whole range. */
  base_sha: z.string().nullable(),
  /**
   * The code host's compare page for base...branch; Create PR adds `title` and `body` query
   * parameters (workspace §2).
   */
  compare_url: z.string(),
});
export type AgentBranch = z.infer<typeof agentBranchResponseSchema>;

/** GET /api/agent/diff?trajectory_id=&source_id=&from=&to= : files changed between two commits. */
export const agentDiffQuerySchema = z.object({
  trajectory_id: z.string().uuid('Unknown agent'),
  source_id: z.string().uuid('Branch subscription not found'),
  from: z.string().regex(/^[0-9a-f]{7,64}$/i, 'Unknown commit'),
  to: z.string().regex(/^[0-9a-f]{7,64}$/i, 'Unknown commit'),
});
export const diffFileSchema = z.object({
  filename: z.string(),
  previous_filename: z.string().nullable(),
  status: z.enum(['added', 'removed', 'renamed', 'modified']),
  additions: z.number().int(),
  deletions: z.number().int(),
  /** The file at `from` (under its previous name for a rename) and at `to`. */
  original: fileContentSchema,
  modified: fileContentSchema,
});
export type DiffFile = z.infer<typeof diffFileSchema>;
export const agentDiffResponseSchema = z.object({
  files: z.array(diffFileSchema),
  /** True when the code host listed more files than one diff shows (the first 100 are shown). */
  truncated: z.boolean(),
});
export type AgentDiff = z.infer<typeof agentDiffResponseSchema>;
export const DIFF_MAX_FILES = 100;

/** GET /api/agent/log?trajectory_id=&log_id= : one script run (workspace §3 "Log"). */
export const agentLogQuerySchema = z.object({
  trajectory_id: z.string().uuid('Unknown agent'),
  log_id: z.string().uuid('Failed to fetch log'),
});
export const agentLogSchema = z.object({
  id: z.string(),
  path: z.string(),
  /** 0 is success; null while the script still runs. */
  status_code: z.number().int().nullable(),
  started_at: apiTimestampSchema,
  /** Seconds. */
  duration: z.number().nullable(),
  trajectory_id: z.string().nullable(),
  repo_name: z.string().nullable(),
  commit_sha: z.string().nullable(),
  script_contents: z.string(),
  output: z.string(),
});
export type AgentLog = z.infer<typeof agentLogSchema>;

/**
 * GET /api/agent/scripts?trajectory_id= : the `.sh` files of the Run Scripts menu at the agent's
 * branch (its base branch before it pushed), per folder: `.tandem/run`, `.tandem/run/auto` and
 * `.tandem/preview`.
 */
export const agentScriptsResponseSchema = z.object({
  run: z.array(z.string()),
  auto: z.array(z.string()),
  preview: z.array(z.string()),
});
export type AgentScripts = z.infer<typeof agentScriptsResponseSchema>;
