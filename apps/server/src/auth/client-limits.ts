import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { PUBLIC_WRITE_BODY_LIMIT, type RateLimits } from '../config/rate-limits.js';
import { AppError } from '../errors/app-error.js';

/**
 * Registers @fastify/rate-limit for the routes that opt in (never globally: signed-in API calls
 * and polling are not limited). Clients are told by IP, as `request.ip` sees it, so only
 * TANDEM_TRUSTED_PROXIES can move a client into another bucket.
 */
export async function registerClientLimits(app: FastifyInstance, limits: RateLimits | false): Promise<void> {
  if (!limits) return;
  await app.register(fastifyRateLimit, {
    global: false,
    // Our own error, so the 429 has the same {detail, code} body as every other error.
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `Too many requests; try again in ${context.after}`, {
        retry_after_seconds: Math.max(1, Math.ceil(context.ttl / 1000)),
      }),
  });
}

/**
 * Route options for an unauthenticated write: `max` requests per client per window (when limits
 * are on) and a small body limit, so an oversized body is a 413 before it is parsed or stored.
 */
export function publicWrite(
  limits: RateLimits | false,
  kind: Exclude<keyof RateLimits, 'windowMs'>,
  bodyLimit = PUBLIC_WRITE_BODY_LIMIT,
): RouteShorthandOptions {
  return {
    bodyLimit,
    ...(limits ? { config: { rateLimit: { max: limits[kind], timeWindow: limits.windowMs } } } : {}),
  };
}
