import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './schema.js';

describe('loadConfig', () => {
  it('defaults to the embedded setup on port 8080 with data under ./.tandem', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe('/srv/app/.tandem');
    expect(config.database).toEqual({ kind: 'pglite', dataDir: '/srv/app/.tandem/pglite' });
    expect(config.agents.warmSandboxes).toBe(32);
    expect(loadConfig({ TANDEM_WARM_SANDBOXES: '0' }).agents.warmSandboxes).toBe(0);
    expect(config.helperThreadNice).toBe(10);
    expect(loadConfig({ TANDEM_V8_HELPER_NICE: '0' }).helperThreadNice).toBe(0);
    expect(config.processNice).toBe(19);
    expect(loadConfig({ TANDEM_PROCESS_NICE: '0' }).processNice).toBe(0);
    expect(config.idleMemoryReleaseMb).toBe(16);
    expect(loadConfig({ TANDEM_IDLE_MEMORY_RELEASE_MB: '0' }).idleMemoryReleaseMb).toBe(0);
  });

  it('switches to Postgres when DATABASE_URL is set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db/tandem', DATABASE_POOL_SIZE: '5' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@db/tandem', poolSize: 5 });
  });

  it.each([
    [{ TANDEM_AGENT_CONCURRENCY: '257' }, 'TANDEM_AGENT_CONCURRENCY must be a whole number from 1 to 256'],
    [{ TANDEM_WARM_SANDBOXES: '-1' }, 'TANDEM_WARM_SANDBOXES must be a whole number from 0 to 1024'],
    [{ TANDEM_WARM_SANDBOXES: '1025' }, 'TANDEM_WARM_SANDBOXES must be a whole number from 0 to 1024'],
    [{ TANDEM_V8_HELPER_NICE: '20' }, 'TANDEM_V8_HELPER_NICE must be a whole number from 0 to 19'],
    [{ TANDEM_V8_HELPER_NICE: '-5' }, 'TANDEM_V8_HELPER_NICE must be a whole number from 0 to 19'],
    [{ TANDEM_PROCESS_NICE: '20' }, 'TANDEM_PROCESS_NICE must be a whole number from 0 to 19'],
    [{ TANDEM_PROCESS_NICE: 'low' }, 'TANDEM_PROCESS_NICE must be a whole number from 0 to 19'],
    [{ TANDEM_IDLE_MEMORY_RELEASE_MB: '1.5' }, 'TANDEM_IDLE_MEMORY_RELEASE_MB must be a whole number of MB'],
    [
      { TANDEM_IDLE_MEMORY_RELEASE_MB: '65537' },
      'TANDEM_IDLE_MEMORY_RELEASE_MB must be a whole number of MB',
    ],
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

  it('is not winding down unless an operator sets the sunset days, and needs both', () => {
    expect(loadConfig({}).sunset).toBeNull();
    expect(
      loadConfig({ TANDEM_SUNSET_LAST_DAY: '2026-10-21', TANDEM_SUNSET_SHUTDOWN_DAY: '2026-11-20' }).sunset,
    ).toEqual({
      last_day: '2026-10-21',
      shutdown_day: '2026-11-20',
      credits_buyable: false,
      refund_note: 'Unused credits will be refunded.',
    });
    expect(() => loadConfig({ TANDEM_SUNSET_LAST_DAY: '2026-10-21' })).toThrow(
      'TANDEM_SUNSET_SHUTDOWN_DAY is needed with TANDEM_SUNSET_LAST_DAY',
    );
    expect(() => loadConfig({ TANDEM_SUNSET_SHUTDOWN_DAY: '2026-10-21' })).toThrow(
      'TANDEM_SUNSET_LAST_DAY is needed with TANDEM_SUNSET_SHUTDOWN_DAY',
    );
    expect(() =>
      loadConfig({ TANDEM_SUNSET_LAST_DAY: '2026-10-21', TANDEM_SUNSET_SHUTDOWN_DAY: '2026-10-20' }),
    ).toThrow('TANDEM_SUNSET_SHUTDOWN_DAY must not be before TANDEM_SUNSET_LAST_DAY');
    expect(() => loadConfig({ TANDEM_SUNSET_LAST_DAY: '21/10/2026' })).toThrow(
      'TANDEM_SUNSET_LAST_DAY must be a day as YYYY-MM-DD',
    );
  });

  it('runs the local code host and makes ada admin when no GitHub is configured', () => {
    const config = loadConfig({});
    expect(config.github).toEqual({ kind: 'local', codehostPort: 8081, codehostCi: true });
    expect([...config.admins]).toEqual(['ada']);
    expect(loadConfig({ CODEHOST_CI: 'off' }).github).toMatchObject({ codehostCi: false });
    expect(() => loadConfig({ CODEHOST_CI: 'process' })).toThrow('CODEHOST_CI');
  });

  it('runs the local billing stand-in without Stripe keys, and real Stripe with all three', () => {
    expect(loadConfig({}).billing).toEqual({ kind: 'local', port: 8082 });
    expect(loadConfig({ STRIPE_LOCAL_PORT: '0' }).billing).toEqual({ kind: 'local', port: 0 });
    const stripe = {
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
    };
    expect(loadConfig(stripe).billing).toEqual({
      kind: 'stripe',
      secretKey: 'sk_test_abc',
      publishableKey: 'pk_test_abc',
      webhookSecret: 'whsec_abc',
    });
    expect(() => loadConfig({ ...stripe, STRIPE_WEBHOOK_SECRET: '' })).toThrow(
      'Invalid configuration: STRIPE_WEBHOOK_SECRET is required when any STRIPE_* key is set',
    );
    expect(() => loadConfig({ ...stripe, STRIPE_SECRET_KEY: 'pk_test_abc' })).toThrow(
      'STRIPE_SECRET_KEY must be a Stripe secret key',
    );
    expect(() => loadConfig({ ...stripe, STRIPE_PUBLISHABLE_KEY: 'pk_live_abc' })).toThrow(
      'STRIPE_PUBLISHABLE_KEY must be of the same mode',
    );
    expect(() => loadConfig({ ...stripe, STRIPE_WEBHOOK_SECRET: 'secret' })).toThrow(
      'STRIPE_WEBHOOK_SECRET must be the webhook endpoint',
    );
  });

  it('points at GitHub with only GITHUB_* variables, and needs all of them', () => {
    const github = {
      GITHUB_API_URL: 'https://api.github.com',
      GITHUB_APP_ID: '12345',
      GITHUB_APP_SLUG: 'tandem-dev',
      GITHUB_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\\nabc\\n-----END PRIVATE KEY-----',
      GITHUB_CLIENT_ID: 'Iv1.x',
      GITHUB_CLIENT_SECRET: 'secret',
      GITHUB_WEBHOOK_SECRET: 'hook',
      TANDEM_ADMINS: 'Octocat, hubot',
    };
    const config = loadConfig(github);
    expect(config.github).toMatchObject({
      kind: 'external',
      apiUrl: 'https://api.github.com',
      webUrl: 'https://github.com',
      appId: 12345,
      privateKey: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----',
    });
    expect([...config.admins]).toEqual(['octocat', 'hubot']);
    expect(loadConfig({ ...github, GITHUB_API_URL: 'https://ghe.example.com/api/v3' }).github).toMatchObject({
      webUrl: 'https://ghe.example.com',
    });
    expect(() => loadConfig({ ...github, GITHUB_CLIENT_SECRET: '' })).toThrow(
      'GITHUB_CLIENT_SECRET is required when GITHUB_API_URL is set',
    );
    expect(() => loadConfig({ ...github, GITHUB_PRIVATE_KEY: './missing.pem' })).toThrow(
      'GITHUB_PRIVATE_KEY must be a PEM',
    );
    expect(() => loadConfig({ ...github, GITHUB_APP_ID: 'abc' })).toThrow(
      'GITHUB_APP_ID must be the numeric App ID',
    );
  });

  it('previews on {subdomain}.localhost for a local server, and only where configured otherwise', () => {
    expect(loadConfig({}).previewUrl).toBe('http://{subdomain}.localhost:{port}');
    expect(loadConfig({ TANDEM_PUBLIC_URL: 'http://localhost:5173' }).previewUrl).toBe(
      'http://{subdomain}.localhost:{port}',
    );
    expect(loadConfig({ TANDEM_PUBLIC_URL: 'https://tandem.example.com' }).previewUrl).toBeUndefined();
    expect(
      loadConfig({
        TANDEM_PUBLIC_URL: 'https://tandem.example.com',
        TANDEM_PREVIEW_URL: 'https://{subdomain}.preview.example.com/',
      }).previewUrl,
    ).toBe('https://{subdomain}.preview.example.com');
    // Preview cookies must be Secure, which browsers allow over plain http only on localhost.
    expect(() => loadConfig({ TANDEM_PREVIEW_URL: 'http://{subdomain}.preview.example.com' })).toThrow(
      /TANDEM_PREVIEW_URL must look like/,
    );
    expect(() => loadConfig({ TANDEM_PREVIEW_URL: 'https://preview.example.com/{subdomain}' })).toThrow(
      /TANDEM_PREVIEW_URL/,
    );
    expect(loadConfig({ TANDEM_SANDBOX_HOST: '10.0.0.5' }).agents.sandboxHost).toBe('10.0.0.5');
    expect(() => loadConfig({ TANDEM_SANDBOX_HOST: 'a b' })).toThrow(/TANDEM_SANDBOX_HOST/);
  });
});
