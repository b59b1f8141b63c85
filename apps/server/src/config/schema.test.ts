import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './schema.js';

describe('loadConfig', () => {
  it('defaults to the embedded setup on port 8080 with data under ./.tandem', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe('/srv/app/.tandem');
    expect(config.database).toEqual({ kind: 'pglite', dataDir: '/srv/app/.tandem/pglite' });
  });

  it('switches to Postgres when DATABASE_URL is set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db/tandem', DATABASE_POOL_SIZE: '5' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@db/tandem', poolSize: 5 });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a port number from 0 to 65535, got "eighty"'],
    [{ PORT: '70000' }, 'PORT must be a port number'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [{ TANDEM_SECRET_KEY: 'short' }, 'TANDEM_SECRET_KEY must be at least 32 characters'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ TANDEM_PUBLIC_URL: 'example.com' }, 'TANDEM_PUBLIC_URL must be an http(s) origin'],
  ])('rejects %o with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
