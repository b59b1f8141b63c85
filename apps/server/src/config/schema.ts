import { resolve } from 'node:path';
import { z } from 'zod';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const port = (fallback: number) =>
  z
    .string()
    .trim()
    .default(String(fallback))
    .transform((v, ctx) => {
      const n = Number(v);
      if (!/^\d+$/.test(v) || n < 0 || n > 65535) {
        ctx.addIssue({ code: 'custom', message: `must be a port number from 0 to 65535, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

const postgresUrl = optionalString.refine(
  (v) => v === undefined || /^postgres(ql)?:\/\/.+/.test(v),
  'must be a postgres:// or postgresql:// URL',
);

/**
 * Every environment variable the server reads, parsed once at start-up. The README's
 * configuration table lists the same names; keep both in step.
 */
export const envSchema = z.object({
  PORT: port(8080),
  HOST: z.string().trim().min(1).default('localhost'),
  TANDEM_DATA_DIR: z.string().trim().min(1).default('.tandem'),
  DATABASE_URL: postgresUrl,
  DATABASE_POOL_SIZE: z
    .string()
    .trim()
    .default('10')
    .refine(
      (v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 200,
      'must be a whole number from 1 to 200',
    )
    .transform(Number),
  TANDEM_SECRET_KEY: optionalString.refine(
    (v) => v === undefined || v.length >= 32,
    'must be at least 32 characters (generate one with: openssl rand -hex 32)',
  ),
  TANDEM_PUBLIC_URL: optionalString.refine(
    (v) => v === undefined || /^https?:\/\/[^/]+\/?$/.test(v),
    'must be an http(s) origin such as https://tandem.example.com',
  ),
  TANDEM_SESSION_DAYS: z
    .string()
    .trim()
    .default('30')
    .refine(
      (v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 365,
      'must be a whole number of days from 1 to 365',
    )
    .transform(Number),
  TANDEM_WEB_DIST: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: { kind: 'postgres'; url: string; poolSize: number } | { kind: 'pglite'; dataDir: string };
  secretKey: string | undefined;
  publicUrl: string | undefined;
  sessionDays: number;
  webDist: string | undefined;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws a ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(String(issue.path[0] ?? 'environment'), issue.message);
  }
  const e = parsed.data;
  const dataDir = resolve(cwd, e.TANDEM_DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: resolve(dataDir, 'pglite') },
    secretKey: e.TANDEM_SECRET_KEY,
    publicUrl: e.TANDEM_PUBLIC_URL?.replace(/\/$/, ''),
    sessionDays: e.TANDEM_SESSION_DAYS,
    webDist: e.TANDEM_WEB_DIST ? resolve(cwd, e.TANDEM_WEB_DIST) : undefined,
    logLevel: e.LOG_LEVEL,
  };
}
