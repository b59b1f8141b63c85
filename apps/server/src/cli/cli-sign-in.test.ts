import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordTransaction } from '@tandem/agent';
import { installations, sessions } from '@tandem/db';

import { desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, until } from '../testing/agent-harness.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';
import { CLI_MAIN, cliEnv, runCli, cliTokenFor, startCliServer } from './cli-harness.js';

/** The CLI's sign-in paths, logout and exit codes, against a real server. */
describe('the tandem CLI: sign-in and exit codes', () => {
  const testApp = useTestApp();
  const home = tempDir('tandem-cli-home-');
  let app: TestApp;
  let ada: TestUser;
  let url: string;
  const cli = (
    args: string[],
    options: { input?: string; cwd?: string; env?: Record<string, string> } = {},
  ) => runCli(['--url', url, ...args], { home, ...options });
  const cliToken = () => cliTokenFor(app, ada);

  beforeAll(async () => {
    app = testApp();
    ({ ada, url } = await startCliServer(app));
  });

  it('logs in with a pasted config file, then says who is signed in', async () => {
    const token = await cliToken();
    const pasted = `${JSON.stringify({ url, token }, null, 2)}\n`;
    const result = await cli(['login', '--no-browser'], { input: pasted });
    expect(result).toMatchObject({ code: 0, stdout: `Signed in to ${url} as ada.\n` });
    expect(result.stderr).toContain('Open this page to sign in');
  });

  it('refuses a pasted token the server does not know with exit 4', async () => {
    const result = await cli(['login', '--no-browser'], { input: 'not-a-token\n' });
    expect(result).toMatchObject({ code: 4, stdout: '' });
    expect(result.stderr).toContain(`tandem: That token was not accepted by ${url} (expired or revoked)`);
  });

  it('logs in through the local callback the sign-in page redirects to', async () => {
    const token = await cliToken();
    const child = spawn(process.execPath, [CLI_MAIN, '--url', url, 'login', '--no-browser'], {
      env: cliEnv(home),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((r) => child.once('close', r));
    const link = await until(
      'the sign-in URL',
      async () => /(http:\S+cli-auth-success\S+)/.exec(stderr)?.[1],
    );
    const page = new URL(link);
    const callback = (state: string) =>
      fetch(`http://127.0.0.1:${page.searchParams.get('port')}/callback?state=${state}&token=${token}`);
    // Another page cannot plant a token: the state must be the one the CLI made.
    expect((await callback('forged')).status).toBe(400);
    const done = await callback(page.searchParams.get('state')!);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Signed in to the Tandem CLI');
    expect(await exited).toBe(0);
    expect(stdout).toBe(`Signed in to ${url} as ada.\n`);
    child.stdin.end();
  });

  it('treats bad arguments as usage errors (exit 2) and shows help with examples', async () => {
    expect(await cli(['view', 'not-an-id'])).toMatchObject({ code: 2 });
    expect(await cli(['create'])).toMatchObject({ code: 2 });
    const help = await cli(['create', '--help']);
    expect(help).toMatchObject({ code: 0 });
    expect(help.stdout).toContain('Examples:');
    expect(await cli(['--version'])).toMatchObject({ code: 0, stdout: '0.1.0\n' });
    const status = await cli(['status']);
    expect(status).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(new RegExp(`^${url}: ok \\(version `)),
    });
  });

  it('reports a missing agent with exit 3 and an unreachable server with exit 6', async () => {
    const missing = await cli(['view', '00000000-0000-4000-8000-000000000000']);
    expect(missing.code).toBe(3);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    const down = await runCli(['--url', 'http://127.0.0.1:9', 'list'], { home, env: { TANDEM_TOKEN: 't' } });
    expect(down.code).toBe(6);
  });

  it('answers a 402 (no credits) with exit 5 and the credits notice', async () => {
    const [row] = await app.database.db.select().from(installations).where(eq(installations.id, 1000));
    await recordTransaction(app.database.db, {
      installationId: 1000,
      amount: -Number(row!.creditBalance),
      kind: 'other',
      description: 'test: out of credits',
    });
    const refused = await cli(['create', 'acme/webapp', 'Please add subtract']);
    expect(refused).toMatchObject({
      code: 5,
      stdout: '',
      stderr: `tandem: Your installation is out of credits. Buy more now. Billing: ${url}/settings#billing\n`,
    });
  });

  it('logs out (revoking the token) and then a revoked or expired token exits 4 in one line', async () => {
    const stored = JSON.parse(readFileSync(join(home, '.config/tandem/config.json'), 'utf8')) as {
      token: string;
    };
    expect(await cli(['logout'])).toMatchObject({ code: 0, stdout: `Signed out of ${url}.\n` });
    expect(await cli(['list'])).toMatchObject({ code: 4 });
    const revoked = await cli(['list'], { env: { TANDEM_TOKEN: stored.token } });
    expect(revoked).toMatchObject({
      code: 4,
      stdout: '',
      stderr: `tandem: Your Tandem token for ${url} is expired or revoked: run "tandem login" to sign in again\n`,
    });
    // An expired one reads the same: its session row is past its expiry.
    const fresh = await cliToken();
    const [newest] = await app.database.db.select().from(sessions).orderBy(desc(sessions.createdAt)).limit(1);
    await app.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, newest!.id));
    const expired = await cli(['list'], { env: { TANDEM_TOKEN: fresh } });
    expect(expired).toMatchObject({ code: 4, stderr: revoked.stderr });
  });
});
