import { createHash, createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { SessionTokens } from './session-tokens.js';

const SECRET = 'a-secret-for-tests-a-secret-for-tests';
const claims = { userId: 'user-1', sessionId: 'session-1' };
const inAnHour = () => new Date(Date.now() + 3600_000);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The session key as session-tokens.ts derives it, so hand-made tokens carry a valid signature. */
const SESSION_KEY = createHash('sha256').update(`tandem-session:${SECRET}`).digest();

/** A token built by hand, to try what jose itself would never produce. */
function handMade(header: Record<string, unknown>, payload: Record<string, unknown>): string {
  const body = `${b64(header)}.${b64(payload)}`;
  return `${body}.${createHmac('sha256', SESSION_KEY).update(body).digest('base64url')}`;
}

describe('SessionTokens', () => {
  const tokens = new SessionTokens(SECRET);
  const now = () => Math.floor(Date.now() / 1000);
  const valid = { iss: 'tandem', aud: 'tandem-api', sub: 'user-1', sid: 'session-1', iat: now() };

  it('verifies what it signed', async () => {
    const token = await tokens.sign(claims, inAnHour());
    expect(tokens.verify(token)).toMatchObject(claims);
  });

  it('refuses a token whose payload or signature was changed', async () => {
    const token = await tokens.sign(claims, inAnHour());
    const [header, , signature] = token.split('.');
    expect(tokens.verify(`${header}.${b64({ ...valid, sub: 'admin', exp: now() + 60 })}.${signature}`)).toBe(
      undefined,
    );
    expect(tokens.verify(`${token.slice(0, -2)}AA`)).toBeUndefined();
    expect(tokens.verify(`${token}=`)).toBeUndefined();
  });

  it('refuses other keys and other purposes', async () => {
    const other = new SessionTokens('another-secret-another-secret-another');
    expect(tokens.verify(await other.sign(claims, inAnHour()))).toBeUndefined();
    const preview = new SessionTokens(SECRET, 'preview');
    expect(tokens.verify(await preview.sign(claims, inAnHour()))).toBeUndefined();
    expect(preview.verify(await tokens.sign(claims, inAnHour()))).toBeUndefined();
  });

  it('refuses expired, not-yet-valid and wrongly addressed tokens', () => {
    expect(tokens.verify(handMade({ alg: 'HS256' }, { ...valid, exp: now() + 60 }))).toMatchObject(claims);
    expect(tokens.verify(handMade({ alg: 'HS256' }, { ...valid, exp: now() - 1 }))).toBeUndefined();
    expect(tokens.verify(handMade({ alg: 'HS256' }, { ...valid, exp: now() }))).toBeUndefined();
    expect(tokens.verify(handMade({ alg: 'HS256' }, { ...valid }))).toBeUndefined();
    expect(
      tokens.verify(handMade({ alg: 'HS256' }, { ...valid, exp: now() + 60, nbf: now() + 30 })),
    ).toBeUndefined();
    expect(
      tokens.verify(handMade({ alg: 'HS256' }, { ...valid, exp: now() + 60, iss: 'evil' })),
    ).toBeUndefined();
    expect(
      tokens.verify(handMade({ alg: 'HS256' }, { ...valid, exp: now() + 60, aud: 'tandem-preview' })),
    ).toBe(undefined);
    expect(tokens.verify(handMade({ alg: 'HS256' }, { ...valid, exp: now() + 60, sid: 7 }))).toBeUndefined();
  });

  it('refuses other algorithms, critical extensions and junk', async () => {
    expect(tokens.verify(handMade({ alg: 'none' }, { ...valid, exp: now() + 60 }))).toBeUndefined();
    expect(tokens.verify(handMade({ alg: 'HS512' }, { ...valid, exp: now() + 60 }))).toBeUndefined();
    expect(
      tokens.verify(handMade({ alg: 'HS256', crit: ['b64'], b64: false }, { ...valid, exp: now() + 60 })),
    ).toBe(undefined);
    const unsigned = `${b64({ alg: 'none' })}.${b64({ ...valid, exp: now() + 60 })}.`;
    expect(tokens.verify(unsigned)).toBeUndefined();
    for (const junk of ['', 'a.b', 'a.b.c.d', '...', 'not a token', `${b64('x')}.${b64([])}.abc`])
      expect(tokens.verify(junk)).toBeUndefined();
    // jose, which signs the tokens, agrees with what this accepts.
    const joseToken = await new SignJWT({ sid: 'session-1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user-1')
      .setIssuer('tandem')
      .setAudience('tandem-api')
      .setExpirationTime(now() + 60)
      .sign(SESSION_KEY);
    expect(tokens.verify(joseToken)).toMatchObject(claims);
  });
});
