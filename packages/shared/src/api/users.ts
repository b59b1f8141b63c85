import { z } from 'zod';
import { apiTimestampSchema } from './timestamp.js';

/** Installation roles. The chooser also treats the code host's 'write' as write permission (platform §3). */
export const installationRoleSchema = z.enum(['admin', 'member']);
export type InstallationRole = z.infer<typeof installationRoleSchema>;

export const installationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  avatar_url: z.string().nullable(),
  role: installationRoleSchema,
});
export type Installation = z.infer<typeof installationSchema>;

/** GET /api/users/me (platform §3 User). */
export const userSchema = z.object({
  user_id: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  admin: z.boolean(),
  installations: z.array(installationSchema),
  /** Repository full names ("owner/repo") the user can reach through their installations. */
  repositories: z.array(z.string()),
  active_installation_id: z.number().int().nullable(),
});
export type User = z.infer<typeof userSchema>;

export const logoutResponseSchema = z.object({ success: z.boolean() });
export type LogoutResponse = z.infer<typeof logoutResponseSchema>;

/** POST /api/auth/cli-token: a token for the `tandem` CLI, issued to a signed-in browser session. */
export const cliTokenResponseSchema = z.object({ token: z.string(), expires_at: apiTimestampSchema });
export type CliTokenResponse = z.infer<typeof cliTokenResponseSchema>;

/** Where the CLI keeps its configuration, relative to the home directory. */
export const CLI_CONFIG_PATH = '~/.config/tandem/config.json';
