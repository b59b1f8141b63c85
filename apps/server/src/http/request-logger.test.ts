import { Writable } from 'node:stream';
import Fastify, { type FastifyRequest } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyRequestLogger, LazyRequestLogger } from './request-logger.js';

function capture(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('lazyRequestLogger', () => {
  let app: ReturnType<typeof Fastify> | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function serve(level = 'info') {
    const { logger, lines } = capture(level);
    const childSpy = vi.spyOn(logger, 'child');
    app = Fastify({ loggerInstance: logger, childLoggerFactory: lazyRequestLogger, genReqId: () => 'req-1' });
    app.get('/poll', { logLevel: 'warn' }, async () => ({ ok: true }));
    app.get('/poll-warns', { logLevel: 'warn' }, async (request: FastifyRequest) => {
      request.log.info('not written');
      request.log.warn({ detail: 1 }, 'written');
      return { ok: true };
    });
    app.get('/page', async (request: FastifyRequest) => {
      request.log.child({ part: 'inner' }).info('from a child');
      return { ok: true };
    });
    await app.ready();
    childSpy.mockClear();
    return { lines, childSpy };
  }

  it('writes the same request lines as an eager child, with the request id', async () => {
    const { lines } = await serve();
    await app!.inject('/page');
    await flush();
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'from a child', 'request completed']);
    for (const line of lines) expect(line.reqId).toBe('req-1');
    expect(lines[1]!.part).toBe('inner');
    expect(lines[0]!.req).toMatchObject({ method: 'GET', url: '/page' });
  });

  it("keeps a route's own level and makes no child for a request that writes nothing", async () => {
    const { lines, childSpy } = await serve();
    await app!.inject('/poll');
    await flush();
    expect(lines).toEqual([]);
    expect(childSpy).not.toHaveBeenCalled();

    await app!.inject('/poll-warns');
    await flush();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'written', detail: 1, reqId: 'req-1', level: 40 });
    expect(childSpy).toHaveBeenCalledTimes(1);
  });

  it('answers level questions without making the child', () => {
    const { logger } = capture('info');
    const childSpy = vi.spyOn(logger, 'child');
    const log = new LazyRequestLogger(logger, { reqId: 'x' }, { level: 'warn' });
    expect(log.level).toBe('warn');
    expect(log.isLevelEnabled('info')).toBe(false);
    expect(log.isLevelEnabled('error')).toBe(true);
    expect(log.isLevelEnabled('no-such-level')).toBe(false);
    log.debug('dropped');
    expect(childSpy).not.toHaveBeenCalled();
    // Changing the level makes the child and follows it.
    log.level = 'debug';
    expect(childSpy).toHaveBeenCalledTimes(1);
    expect(log.level).toBe('debug');
    expect(log.isLevelEnabled('debug')).toBe(true);
  });

  it("inherits the parent's level when the route sets none, and a silent parent writes nothing", () => {
    const quiet = capture('silent');
    const log = new LazyRequestLogger(quiet.logger, { reqId: 'x' }, {});
    expect(log.level).toBe('silent');
    log.fatal('dropped');
    expect(log.isLevelEnabled('fatal')).toBe(false);
    expect(new LazyRequestLogger(capture('debug').logger, {}, {}).isLevelEnabled('debug')).toBe(true);
  });
});
