import { z } from 'zod';
import { installationRoleSchema } from './users.js';

/** GET /api/settings/user (platform §3 User settings). */
export const userSettingsSchema = z.object({
  notifications_enabled: z.boolean(),
  auto_create_pr: z.boolean(),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;

/** PATCH /api/settings/user: one or both toggles; anything else is refused. */
export const updateUserSettingsSchema = z
  .object({
    notifications_enabled: z.boolean().optional(),
    auto_create_pr: z.boolean().optional(),
  })
  .strict()
  .refine((v) => v.notifications_enabled !== undefined || v.auto_create_pr !== undefined, {
    message: 'Give notifications_enabled or auto_create_pr',
  });
export type UpdateUserSettings = z.infer<typeof updateUserSettingsSchema>;

/** One row of an installation's users table (platform §3). */
export const installationUserSchema = z.object({
  user_id: z.string(),
  username: z.string(),
  avatar_url: z.string().nullable(),
  role: installationRoleSchema,
  /** Where the user first came from (tracking); null when unknown. */
  utm_source: z.string().nullable(),
});
export type InstallationUser = z.infer<typeof installationUserSchema>;

/**
 * GET /api/settings/users-table (installation admins only): the users, and the installation facts
 * the admin sections of the settings page show next to them.
 */
export const usersTableSchema = z.object({
  installation: z.object({
    id: z.number().int(),
    name: z.string(),
    /** The code host's page where the installation's repositories are chosen. */
    manage_repositories_url: z.string(),
  }),
  repositories: z.array(z.string()),
  users: z.array(installationUserSchema),
});
export type UsersTable = z.infer<typeof usersTableSchema>;

/** Code-host usernames: letters, digits and single hyphens, at most 39 characters. */
export const CODE_HOST_USERNAME_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

/**
 * PATCH /api/settings/users-table: add a user or change their role (`role` admin or member), or
 * remove them (`role` null, platform §3).
 */
export const updateInstallationUserSchema = z
  .object({
    username: z
      .string()
      .trim()
      .min(1, 'Username is required')
      .regex(CODE_HOST_USERNAME_PATTERN, 'Invalid username'),
    role: installationRoleSchema.nullable(),
  })
  .strict();
export type UpdateInstallationUser = z.input<typeof updateInstallationUserSchema>;

/** What the settings page shows per failure (platform §8), and the server's refusal texts. */
export const SETTINGS_MESSAGES = {
  load: 'There was an error fetching your settings. Please try again later.',
  update: 'There was an error updating your settings.',
  notificationPermission: 'Notifications permissions must be enabled to receive notifications.',
  usersLoad: 'There was an error fetching users. Please reload or try again later.',
  usersUpdate: 'There was an error modifying the user settings. Please try again later.',
  notAdmin: 'Only installation admins can see or change the users of this installation',
  ownRow: 'You cannot change or remove your own role',
  unknownUser: 'No user with that username exists on the code host',
  notMember: 'That user is not a member of this installation',
  noInstallation: 'No active installation',
} as const;
