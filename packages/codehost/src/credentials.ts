import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface AppCredentials {
  appId: number;
  slug: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  /** PKCS#8 PEM RSA key, as GitHub hands an App its private key. */
  privateKey: string;
}

/**
 * The one App registered on the local code host. Generated once into the data dir (mode 0600) and
 * reused, so the product's App authentication works exactly as against GitHub.
 */
export function ensureAppCredentials(dataDir: string): AppCredentials {
  const path = join(dataDir, 'app.json');
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as AppCredentials;
  mkdirSync(dataDir, { recursive: true });
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const credentials: AppCredentials = {
    appId: 1,
    slug: 'tandem',
    clientId: `Iv1.${randomBytes(8).toString('hex')}`,
    clientSecret: randomBytes(20).toString('hex'),
    webhookSecret: randomBytes(20).toString('hex'),
    privateKey,
  };
  writeFileSync(path, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  return credentials;
}
