import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a log link works: GitHub's signed log URLs last about a minute. */
const LINK_TTL_MS = 60_000;

/**
 * Signed, expiring log links. GitHub answers a job's log request with a redirect to a URL that
 * needs no credentials; this does the same with an HMAC under a key that lives only in memory
 * (links die with the process, which is fine for a minute-long link).
 */
export class LogLinks {
  private readonly key = randomBytes(32);

  token(jobId: number, now = Date.now()): string {
    const expires = now + LINK_TTL_MS;
    return `${expires}.${this.sign(jobId, expires)}`;
  }

  verify(jobId: number, token: string, now = Date.now()): boolean {
    const [expires = '', signature = ''] = token.split('.');
    if (!/^\d+$/.test(expires) || Number(expires) < now) return false;
    const expected = Buffer.from(this.sign(jobId, Number(expires)));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private sign(jobId: number, expires: number): string {
    return createHmac('sha256', this.key).update(`${jobId}:${expires}`).digest('hex');
  }
}
