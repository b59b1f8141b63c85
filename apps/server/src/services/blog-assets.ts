import { and, eq, inArray } from 'drizzle-orm';
import { assets, type Db } from '@tandem/db';
import type { AssetMode } from '@tandem/shared';

/** Light/dark variants fall back to the default image, so one upload serves both themes. */
export async function findAsset(db: Db, assetId: string, mode: AssetMode) {
  const modes: AssetMode[] = mode === 'default' ? ['default'] : [mode, 'default'];
  const rows = await db
    .select()
    .from(assets)
    .where(and(eq(assets.assetId, assetId), inArray(assets.mode, modes)));
  return modes.map((m) => rows.find((r) => r.mode === m)).find(Boolean);
}

/** Stores (or replaces) one image variant. */
export async function saveAsset(
  db: Db,
  asset: { assetId: string; mode: AssetMode; mimeType: string; bytes: Buffer },
): Promise<void> {
  await db
    .insert(assets)
    .values(asset)
    .onConflictDoUpdate({
      target: [assets.assetId, assets.mode],
      set: { mimeType: asset.mimeType, bytes: asset.bytes, updatedAt: new Date() },
    });
}
