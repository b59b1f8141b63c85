import { and, asc, eq } from 'drizzle-orm';
import { repositorySecrets, type Db } from '@tandem/db';
import {
  normalizeSecretKey,
  SECRET_MESSAGES,
  secretKeyError,
  secretValueError,
  type Secret,
} from '@tandem/shared';
import type { SecretBox } from '../crypto/secret-box.js';
import { AppError, notFound } from '../errors/app-error.js';

export async function listSecrets(db: Db, repositoryId: string): Promise<Secret[]> {
  const rows = await db
    .select({ key: repositorySecrets.key, createdAt: repositorySecrets.createdAt })
    .from(repositorySecrets)
    .where(eq(repositorySecrets.repositoryId, repositoryId))
    .orderBy(asc(repositorySecrets.key));
  return rows.map((row) => ({ key: row.key, created_at: row.createdAt.toISOString() }));
}

export async function addSecret(
  db: Db,
  box: Pick<SecretBox, 'seal'>,
  repositoryId: string,
  input: { key: string; value: string },
): Promise<Secret> {
  const key = normalizeSecretKey(input.key);
  const problem = secretKeyError(key) ?? secretValueError(input.value);
  if (problem) throw new AppError('bad_request', problem);
  // The unique index decides duplicates, so two concurrent adds cannot both succeed.
  const [row] = await db
    .insert(repositorySecrets)
    .values({ repositoryId, key, sealedValue: box.seal(input.value) })
    .onConflictDoNothing({ target: [repositorySecrets.repositoryId, repositorySecrets.key] })
    .returning({ key: repositorySecrets.key, createdAt: repositorySecrets.createdAt });
  if (!row) throw new AppError('bad_request', SECRET_MESSAGES.duplicate);
  return { key: row.key, created_at: row.createdAt.toISOString() };
}

/** Looks the key up as add-secret stored it (upper-cased); an invalid name simply matches nothing. */
export async function deleteSecret(db: Db, repositoryId: string, rawKey: string): Promise<void> {
  const deleted = await db
    .delete(repositorySecrets)
    .where(
      and(
        eq(repositorySecrets.repositoryId, repositoryId),
        eq(repositorySecrets.key, normalizeSecretKey(rawKey)),
      ),
    )
    .returning({ id: repositorySecrets.id });
  if (!deleted.length) throw notFound(SECRET_MESSAGES.notFound);
}
