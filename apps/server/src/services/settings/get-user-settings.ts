import { eq } from 'drizzle-orm';
import { userSettings, type Db } from '@tandem/db';
import type { UserSettings } from '@tandem/shared';

/** The caller's toggles; a user without a settings row has the column defaults. */
export async function getUserSettings(db: Db, userId: string): Promise<UserSettings> {
  const [row] = await db
    .select({
      notifications_enabled: userSettings.notificationsEnabled,
      auto_create_pr: userSettings.autoCreatePr,
    })
    .from(userSettings)
    .where(eq(userSettings.userId, userId));
  return row ?? { notifications_enabled: false, auto_create_pr: true };
}
