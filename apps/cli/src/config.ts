import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { CliError, EXIT } from './errors.js';

export const DEFAULT_SERVER_URL = 'http://localhost:8080';

/** The file the web app's /cli-auth-success page shows: `{ "url": …, "token": … }`. */
const storedConfigSchema = z.object({ url: z.string().optional(), token: z.string().optional() });
export type StoredConfig = z.infer<typeof storedConfigSchema>;

type Env = Record<string, string | undefined>;

/** `$XDG_CONFIG_HOME/tandem/config.json`, else `~/.config/tandem/config.json` (the path the page names). */
export function configPath(env: Env = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'tandem', 'config.json');
}

export function readConfig(path = configPath()): StoredConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError(`${path} is not valid JSON: fix it or run "tandem login" again`);
  }
  const parsed = storedConfigSchema.safeParse(json);
  if (!parsed.success) throw new CliError(`${path} should hold {"url": "…", "token": "…"}`);
  return parsed.data;
}

/**
 * Writes the file readable by its owner only: it holds a token as good as a password. The chmod
 * also tightens a file that existed with looser rights (writeFileSync's mode only applies on create).
 */
export function writeConfig(config: StoredConfig, path = configPath()): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

export function deleteConfig(path = configPath()): void {
  rmSync(path, { force: true });
}

/** Trailing slashes dropped, so stored and given URLs compare equal. */
export function normalizeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`Not a URL: ${url}`, EXIT.usage);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new CliError(`Not an http(s) URL: ${url}`, EXIT.usage);
  return parsed.href.replace(/\/+$/, '');
}

export interface Target {
  url: string;
  token: string | undefined;
}

/**
 * Which server and token a command uses: --url, then TANDEM_URL, then the stored URL; TANDEM_TOKEN,
 * then the stored token. The stored token is only sent to the server it was issued by, so
 * `--url` pointing elsewhere never leaks it.
 */
export function resolveTarget(
  flagUrl: string | undefined,
  env: Env = process.env,
  path = configPath(env),
): Target {
  const stored = readConfig(path);
  const url = normalizeUrl(
    flagUrl ?? (env.TANDEM_URL?.trim() || undefined) ?? stored.url ?? DEFAULT_SERVER_URL,
  );
  const envToken = env.TANDEM_TOKEN?.trim();
  if (envToken) return { url, token: envToken };
  const storedUrl = stored.url ? normalizeUrl(stored.url) : undefined;
  return { url, token: stored.token && storedUrl === url ? stored.token : undefined };
}
