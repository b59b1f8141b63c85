import { z } from 'zod';

/**
 * The admin task monitor (platform §4, §7 Admin): every agent run and every queued webhook
 * delivery, with restart, fail and stop. See docs/decisions.md "Admin task monitor".
 */

/** An agent's status as stored: 'failed' is set only by an admin's Fail. */
export const AGENT_TASK_STATUSES = ['pending', 'open', 'waiting', 'paused', 'failed'] as const;
/** A webhook delivery not yet applied: waiting its first try, waiting a retry, or given up. */
export const WEBHOOK_TASK_STATUSES = ['queued', 'retrying', 'failed'] as const;
export const ADMIN_TASK_STATUSES = [...new Set([...AGENT_TASK_STATUSES, ...WEBHOOK_TASK_STATUSES])] as [
  string,
  ...string[],
];
export const ADMIN_TASK_SORTS = ['created_at', 'cost'] as const;
export const ADMIN_TASK_KINDS = ['agent', 'webhook'] as const;

/** A webhook task's id: the prefix keeps it apart from agent ids (both are UUIDs). */
export const WEBHOOK_TASK_PREFIX = 'webhook:';

/** GET /api/admin/tasks and /api/admin/tasks/party. */
export const adminTasksQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  rows_per_page: z.coerce.number().int().min(1).max(100).default(25),
  sort_by: z.enum(ADMIN_TASK_SORTS).default('created_at'),
  descending: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Only tasks in this status ('' for all). */
  status: z.enum(ADMIN_TASK_STATUSES).or(z.literal('')).default(''),
  /** Only agents or only webhook deliveries ('' for both). */
  kind: z.enum(ADMIN_TASK_KINDS).or(z.literal('')).default(''),
});
export type AdminTasksQuery = z.input<typeof adminTasksQuerySchema>;
export type AdminTasksRequest = z.output<typeof adminTasksQuerySchema>;

const installationRef = z.object({ id: z.number().int(), name: z.string().nullable() });

export const adminAgentTaskSchema = z.object({
  kind: z.literal('agent'),
  /** The agent's id. */
  id: z.string(),
  status: z.string(),
  title: z.string(),
  installation: installationRef,
  /** "owner/name", null for an agent without one. */
  repository: z.string().nullable(),
  model: z.string(),
  creator: z.string().nullable(),
  purpose: z.string().nullable(),
  archived: z.boolean(),
  created_at: z.string(),
  last_active: z.string(),
  /** Ledger units (hundredths of a cent) the agent has spent. */
  cost: z.number().int(),
});
export type AdminAgentTask = z.infer<typeof adminAgentTaskSchema>;

export const adminWebhookTaskSchema = z.object({
  kind: z.literal('webhook'),
  /** `webhook:{delivery id}`. */
  id: z.string(),
  status: z.enum(WEBHOOK_TASK_STATUSES),
  /** The event and action, e.g. "issue_comment.created". */
  title: z.string(),
  installation: installationRef.nullable(),
  attempts: z.number().int(),
  error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
});
export type AdminWebhookTask = z.infer<typeof adminWebhookTaskSchema>;

export const adminTaskSchema = z.discriminatedUnion('kind', [adminAgentTaskSchema, adminWebhookTaskSchema]);
export type AdminTask = z.infer<typeof adminTaskSchema>;

export const adminTaskListSchema = z.object({
  tasks: z.array(adminTaskSchema),
  count: z.number().int(),
});
export type AdminTaskList = z.infer<typeof adminTaskListSchema>;

/** POST /api/admin/tasks/restart. */
export const restartTaskSchema = z.object({ task_id: z.string().min(1).max(300) });
export type RestartTask = z.infer<typeof restartTaskSchema>;

/** The answer to restart, fail and stop: the task as it is now. */
export const adminTaskActionSchema = z.object({ success: z.literal(true), task: adminTaskSchema });
export type AdminTaskAction = z.infer<typeof adminTaskActionSchema>;

/** The feed item an admin's action writes on the agent (action type AdminTaskEvent). */
export const ADMIN_TASK_EVENT = 'AdminTaskEvent';
export const ADMIN_TASK_ACTIONS = ['restart', 'fail', 'stop'] as const;
export type AdminTaskActionName = (typeof ADMIN_TASK_ACTIONS)[number];
export const ADMIN_TASK_EVENT_TEXT: Record<AdminTaskActionName, string> = {
  restart: 'An admin restarted this agent.',
  fail: 'An admin marked this agent as failed.',
  stop: 'An admin stopped this agent.',
};
