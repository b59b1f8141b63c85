import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** The product version, from this package's package.json (works from src/ and dist/ alike). */
export function serverVersion(): string {
  cached ??= (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
  return cached;
}
