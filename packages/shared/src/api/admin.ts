import { z } from 'zod';

/** Admin area (platform §7 Admin): product admins only; everyone else gets 403. */

export const ADMIN_INSTALLATION_SORTS = ['created_at', 'name', 'credits', 'agents'] as const;

/** GET /api/admin/installations: paging, sort_by, descending, search (platform §7). */
export const adminInstallationsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  rows_per_page: z.coerce.number().int().min(1).max(100).default(25),
  sort_by: z.enum(ADMIN_INSTALLATION_SORTS).default('created_at'),
  descending: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Part of the account name (case-insensitive) or the installation id. */
  search: z.string().trim().max(100).default(''),
});
export type AdminInstallationsQuery = z.input<typeof adminInstallationsQuerySchema>;
/** The query as parsed (what the web app builds and the server reads). */
export type AdminInstallationsRequest = z.output<typeof adminInstallationsQuerySchema>;

export const adminInstallationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  avatar_url: z.string().nullable(),
  account_type: z.enum(['User', 'Organization']),
  created_at: z.string(),
  banned_at: z.string().nullable(),
  /** Ledger units (hundredths of a cent), as credits-remaining. */
  credits: z.number().int(),
  members: z.number().int(),
  agents: z.number().int(),
  /** Agents working or waiting now. */
  active_agents: z.number().int(),
});
export type AdminInstallation = z.infer<typeof adminInstallationSchema>;

export const adminInstallationListSchema = z.object({
  installations: z.array(adminInstallationSchema),
  count: z.number().int(),
});
export type AdminInstallationList = z.infer<typeof adminInstallationListSchema>;

/** POST /api/admin/ban-installation: bans (or lifts the ban on) an installation. */
export const banInstallationSchema = z.object({
  installation_id: z.number().int().positive(),
  banned: z.boolean(),
});
export type BanInstallation = z.infer<typeof banInstallationSchema>;

/** GET /api/admin/installation/{installation_id}/banned, and the answer to a ban. */
export const installationBannedSchema = z.object({
  installation_id: z.number().int(),
  banned: z.boolean(),
  banned_at: z.string().nullable(),
  /** Agents a ban stopped (0 for a lift or a repeated ban). */
  stopped_agents: z.number().int().optional(),
});
export type InstallationBanned = z.infer<typeof installationBannedSchema>;

/** What a banned installation's members are told when they start or message an agent. */
/**
 * What members of an installation whose owner suspended the App on the code host are told: the
 * code host gives a suspended App no tokens, so no agent could clone or push there.
 */
export const INSTALLATION_SUSPENDED_MESSAGE =
  'Tandem is suspended on this account. Unsuspend the app in the account’s GitHub settings to use agents again.';

export const INSTALLATION_BANNED_MESSAGE =
  'This installation has been banned from Tandem. Contact support if you think this is a mistake.';
