import { z } from 'zod';

/**
 * The admin dashboard, users, sessions, lead info and repositories (platform §5, §7 Admin; issue
 * 21). Product admins only. Days are UTC calendar days, written YYYY-MM-DD.
 */

/** The time ranges the dashboard offers, in days (today included). */
export const ADMIN_DASHBOARD_RANGES = [7, 30, 90] as const;
export type AdminDashboardRange = (typeof ADMIN_DASHBOARD_RANGES)[number];

/** `?days=7|30|90` (default 30) for the dashboard and model usage. */
export const adminRangeQuerySchema = z.object({
  days: z
    .enum(['7', '30', '90'])
    .default('30')
    .transform((v) => Number(v) as AdminDashboardRange),
});

const count = z.number().int();

/** One UTC day of the dashboard's series. */
export const adminDashboardDaySchema = z.object({
  date: z.string(),
  new_users: count,
  /** People who wrote to an agent (or started one) that day. */
  active_users: count,
  /** Installations whose agents someone wrote to that day. */
  active_installations: count,
  agents_started: count,
  /** Ledger units (hundredths of a cent) charged for model use. */
  credits_spent: count,
  /** Ledger units bought (paid invoices, auto-fill). */
  credits_bought: count,
  /** Agents that hit an error that day. */
  errored_agents: count,
});
export type AdminDashboardDay = z.infer<typeof adminDashboardDaySchema>;

/** Model usage from the spice records (each model call's response stats). */
export const adminModelUsageTotalsSchema = z.object({
  calls: count,
  input_tokens: count,
  cached_tokens: count,
  output_tokens: count,
  reasoning_tokens: count,
  /** What the provider charged, in cents (fractions kept). */
  cost_cents: z.number(),
});
export type AdminModelUsageTotals = z.infer<typeof adminModelUsageTotalsSchema>;

export const adminModelSpendSchema = adminModelUsageTotalsSchema.extend({ model: z.string() });
export type AdminModelSpend = z.infer<typeof adminModelSpendSchema>;

/** GET /api/admin/admin_dashboard?days= */
export const adminDashboardSchema = z.object({
  days: z.number().int(),
  /** First and last day of the range (the last is today). */
  from: z.string(),
  to: z.string(),
  totals: z.object({
    /** All users and installations (not deleted) now. */
    users: count,
    installations: count,
    new_users: count,
    active_users: count,
    active_installations: count,
    agents_started: count,
    /** Agents working or waiting now. */
    agents_running: count,
    credits_spent: count,
    credits_bought: count,
    /** Agents that ran (called a model or hit an error) in the range. */
    agents_ran: count,
    errored_agents: count,
    /** errored_agents / agents_ran (0 when none ran). */
    error_rate: z.number(),
  }),
  daily: z.array(adminDashboardDaySchema),
  models: z.array(adminModelSpendSchema),
});
export type AdminDashboard = z.infer<typeof adminDashboardSchema>;

/** GET /api/admin/model-usage/{model_name}?days= (alias /api/admin/anthropic-usage/{model_name}). */
export const adminModelUsageSchema = z.object({
  model: z.string(),
  days: z.number().int(),
  totals: adminModelUsageTotalsSchema,
  daily: z.array(adminModelUsageTotalsSchema.extend({ date: z.string() })),
});
export type AdminModelUsage = z.infer<typeof adminModelUsageSchema>;

/** Paging and search shared by the admin lists. */
export const adminListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  rows_per_page: z.coerce.number().int().min(1).max(100).default(25),
  search: z.string().trim().max(100).default(''),
});
export type AdminListQuery = z.output<typeof adminListQuerySchema>;

/** GET /api/admin/users: paging, search (username or email). */
export const adminUserSchema = z.object({
  user_id: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  admin: z.boolean(),
  created_at: z.string(),
  installations: count,
  agents: count,
  /** How they first arrived (their earliest lead's utm_source), if known. */
  utm_source: z.string().nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUserListSchema = z.object({ users: z.array(adminUserSchema), count });
export type AdminUserList = z.infer<typeof adminUserListSchema>;

/** GET /api/admin/user-sessions: tracked events, newest first, for one user or lead, or all. */
export const adminUserSessionsQuerySchema = adminListQuerySchema.omit({ search: true }).extend({
  user_id: z.uuid().optional(),
  lead_id: z.string().max(200).optional(),
});
export type AdminUserSessionsQuery = z.output<typeof adminUserSessionsQuerySchema>;
export const adminSessionEventSchema = z.object({
  id: z.string(),
  lead_id: z.string().nullable(),
  user_id: z.string().nullable(),
  type: z.string(),
  timestamp: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type AdminSessionEvent = z.infer<typeof adminSessionEventSchema>;
export const adminUserSessionsSchema = z.object({ events: z.array(adminSessionEventSchema), count });
export type AdminUserSessions = z.infer<typeof adminUserSessionsSchema>;

/**
 * GET /api/admin/user/{user_id}/lead-info: free key-value fields (platform §5); keys ending in
 * `_at` hold ISO dates. Empty fields when nothing is known about how the user arrived.
 */
export const adminLeadInfoSchema = z.object({
  user_id: z.string(),
  lead_id: z.string().nullable(),
  fields: z.record(z.string(), z.string()),
});
export type AdminLeadInfo = z.infer<typeof adminLeadInfoSchema>;
export const LEAD_INFO_ERROR = 'Failed to load lead information';
export const LEAD_INFO_EMPTY = 'No lead information available for this user.';

/** GET /api/admin/repositories: every repository across installations, paged, searchable. */
export const adminRepositorySchema = z.object({
  id: z.string(),
  full_name: z.string(),
  installation_id: z.number().int(),
  installation_name: z.string(),
  private: z.boolean(),
  removed: z.boolean(),
  agents: count,
  created_at: z.string(),
});
export type AdminRepository = z.infer<typeof adminRepositorySchema>;
export const adminRepositoryListSchema = z.object({ repositories: z.array(adminRepositorySchema), count });
export type AdminRepositoryList = z.infer<typeof adminRepositoryListSchema>;
