import type { Config } from './config/schema.js';

interface SystemError {
  code?: unknown;
  port?: unknown;
  address?: unknown;
  message?: unknown;
}

const DATABASE_CODES: Record<string, string> = {
  ECONNREFUSED: 'nothing is listening there',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  '28P01': 'the password was refused',
  '28000': 'the user may not connect',
  '3D000': 'the database does not exist (create it with createdb)',
};

function databaseTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'the configured server';
  }
}

/**
 * One line that says what went wrong at start-up and which setting to change, like configuration
 * errors do, instead of a JSON stack trace: a port in use names PORT, CODEHOST_PORT or
 * STRIPE_LOCAL_PORT, an
 * unreachable database names DATABASE_URL.
 */
export function startupErrorMessage(error: unknown, config: Config): string {
  const e = (typeof error === 'object' && error !== null ? error : {}) as SystemError;
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    const port = typeof e.port === 'number' ? e.port : null;
    const codehostPort = config.github.kind === 'local' ? config.github.codehostPort : null;
    const billingPort = config.billing.kind === 'local' ? config.billing.port : null;
    const variable =
      port === null || port === config.port
        ? 'PORT'
        : port === codehostPort
          ? 'CODEHOST_PORT'
          : port === billingPort
            ? 'STRIPE_LOCAL_PORT'
            : 'PORT';
    const what = code === 'EADDRINUSE' ? 'is already in use' : 'may not be used by this user';
    return (
      `Port ${port ?? '?'} ${what} (${variable}). Stop the other process, or start with ` +
      `${variable}=<another port>${variable === 'CODEHOST_PORT' ? '' : ' (0 picks a free one)'}.`
    );
  }
  if (config.database.kind === 'postgres' && code in DATABASE_CODES) {
    return (
      `Cannot use the database at ${databaseTarget(config.database.url)} (DATABASE_URL): ` +
      `${DATABASE_CODES[code]}. Check DATABASE_URL, or unset it to use the embedded database.`
    );
  }
  return `Tandem failed to start: ${message}`;
}
