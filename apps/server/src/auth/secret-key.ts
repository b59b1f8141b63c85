import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The key that signs session tokens (and later encrypts secrets at rest). Configured servers share
 * TANDEM_SECRET_KEY; the embedded default generates one into the data dir so sessions survive restarts.
 */
export function resolveSecretKey(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const path = join(dataDir, 'secret.key');
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('hex');
  writeFileSync(path, `${key}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  return key;
}
