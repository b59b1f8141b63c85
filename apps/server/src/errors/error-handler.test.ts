import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_BUSY, registerErrorHandler } from './error-handler.js';

async function appThrowing(fail: () => Promise<unknown>): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  registerErrorHandler(app);
  app.get('/fail', async () => fail());
  await app.ready();
  return app;
}

/** drizzle's wrapper around a driver error, as a route sees it. */
const wrapped = (cause: Error) => new Error('Failed query: select 1\nparams: ', { cause });

describe('the error handler', () => {
  it('answers a database that refuses connections with 503 and Retry-After, not a 500', async () => {
    const tooMany = Object.assign(new Error('sorry, too many clients already'), { code: '53300' });
    const starting = Object.assign(new Error('the database system is starting up'), { code: '57P03' });
    for (const cause of [tooMany, starting]) {
      const app = await appThrowing(() => Promise.reject(wrapped(cause)));
      const res = await app.inject({ url: '/fail' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toMatchObject({ detail: DATABASE_BUSY, code: 'unavailable' });
      await app.close();
    }
  });

  it('keeps other failures, database ones included, a 500 that names no detail', async () => {
    const unique = Object.assign(new Error('duplicate key value'), { code: '23505' });
    const app = await appThrowing(() => Promise.reject(wrapped(unique)));
    const res = await app.inject({ url: '/fail' });
    expect(res.statusCode).toBe(500);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(res.json()).toMatchObject({ detail: 'Internal Server Error', code: 'internal' });
    await app.close();
  });

  describe.runIf(process.env.TEST_DATABASE_URL)('on Postgres', () => {
    const role = `tandem_busy_${process.pid}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    afterAll(async () => {
      await admin.query(`drop role if exists ${role}`);
      await admin.end();
    });

    it('answers 503 for the error Postgres itself gives when it has no connection to spare', async () => {
      await admin.connect();
      // A role allowed no connections gets the same refusal (53300) as a full server.
      await admin.query(`create role ${role} login connection limit 0`);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.username = role;
      url.password = '';
      const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
      try {
        const app = await appThrowing(() => pool.query('select 1'));
        const res = await app.inject({ url: '/fail' });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toMatchObject({ code: 'unavailable' });
        await app.close();
      } finally {
        await pool.end();
      }
    });
  });
});
