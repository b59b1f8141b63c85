import { userSettings, type Db } from '@tandem/db';
import type { UpdateUserSettings, UserSettings } from '@tandem/shared';
import { getUserSettings } from './get-user-settings.js';

/** Changes the toggles given, in one upsert, and returns the stored result. */
export async function updateUserSettings(
  db: Db,
  userId: string,
  change: UpdateUserSettings,
): Promise<UserSettings> {
  const set = {
    ...(change.notifications_enabled === undefined
      ? {}
      : { notificationsEnabled: change.notifications_enabled }),
    ...(change.auto_create_pr === undefined ? {} : { autoCreatePr: change.auto_create_pr }),
  };
  await db
    .insert(userSettings)
    .values({ userId, ...set })
    .onConflictDoUpdate({ target: userSettings.userId, set: { ...set, updatedAt: new Date() } });
  return getUserSettings(db, userId);
}
