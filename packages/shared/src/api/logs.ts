import { z } from 'zod';
import { agentLogSchema } from './agent-code.js';

/** The Logs tab pages by 25 (platform §9). */
export const SCRIPT_LOG_PAGE_SIZE = 25;
export const SCRIPT_LOG_MAX_PAGE_SIZE = 100;

/** Texts of the log screens (platform §2, §8). */
export const LOG_MESSAGES = {
  empty: 'There are no logs yet for this repository.',
  fetchFailed: 'Failed to fetch log',
} as const;

/** GET /api/repositories/{repo_owner}/{repo_name}/logs?page=&page_size= (page is 1-based). */
export const scriptLogListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(SCRIPT_LOG_MAX_PAGE_SIZE).default(SCRIPT_LOG_PAGE_SIZE),
});
export type ScriptLogListQuery = z.infer<typeof scriptLogListQuerySchema>;

/** A row of the Logs tab (platform §3 Script log), without the output. */
export const scriptLogSummarySchema = z.object({
  id: z.string(),
  path: z.string(),
  started_at: z.string(),
  /** 0 is success; null when the script never reported one. */
  status_code: z.number().int().nullable(),
  trajectory_id: z.string().nullable(),
  repo_name: z.string(),
});
export type ScriptLogSummary = z.infer<typeof scriptLogSummarySchema>;

export const scriptLogListSchema = z.object({
  logs: z.array(scriptLogSummarySchema),
  total: z.number().int(),
});
export type ScriptLogList = z.infer<typeof scriptLogListSchema>;

/** GET /api/scripts/log/{log_uuid}: one log with its script and output (the agent's log shape). */
export const scriptLogSchema = agentLogSchema;
export type ScriptLog = z.infer<typeof scriptLogSchema>;

export const scriptLogParamsSchema = z.object({ log_uuid: z.uuid() });
