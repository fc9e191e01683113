/**
 * Per-key request limits with @fastify/rate-limit: a fixed one-minute window per key id, counted in
 * memory, or in Redis when several instances must share one limit (`redisUrl`). The library's own
 * headers are turned off: the contract's are the IETF RateLimit and RateLimit-Policy headers
 * (draft-ietf-httpapi-ratelimit-headers), built here from the library's decision.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';

const WINDOW_SECONDS = 60;
const POLICY_NAME = '"per-key"';
/** Namespaces the counters in a Redis shared with other data (the key store). */
const REDIS_PREFIX = 'outlay:rate:';

export interface RateDecision {
  readonly allowed: boolean;
  /** `RateLimit` header value: remaining quota and seconds to reset. */
  readonly header: string;
  readonly policy: string;
  /** Seconds until the window resets, at least 1. */
  readonly resetSeconds: number;
}

export type RateLimiter = (request: FastifyRequest, limit: number) => Promise<RateDecision>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated key's quota per window, read by the limiter. */
    keyRateLimit: number;
  }
}

/**
 * Registers the plugin and returns the limiter; usable once the server is ready. With a Redis URL the
 * connection is closed with the server.
 */
export function installRateLimiter(app: FastifyInstance, redisUrl: string | undefined): RateLimiter {
  // A request fails after one retry rather than waiting for Redis to come back (ioredis' default is 20).
  const redis = redisUrl === undefined ? undefined : new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  if (redis !== undefined) app.addHook('onClose', async () => void (await redis.quit()));
  app.decorateRequest('keyRateLimit', 0);
  app.register(rateLimit, {
    global: false,
    timeWindow: WINDOW_SECONDS * 1000,
    max: (request) => request.keyRateLimit,
    keyGenerator: (request) => request.keyId ?? '',
    ...(redis === undefined ? {} : { redis, nameSpace: REDIS_PREFIX }),
  });
  let check: ReturnType<FastifyInstance['createRateLimit']> | undefined;
  app.after(() => {
    check = app.createRateLimit();
  });
  return async (request, limit) => {
    request.keyRateLimit = limit;
    const result = await check!(request);
    const resetSeconds = Math.max(1, result.isAllowed ? WINDOW_SECONDS : result.ttlInSeconds);
    const remaining = result.isAllowed ? limit : result.remaining;
    return {
      allowed: result.isAllowed || !result.isExceeded,
      header: `${POLICY_NAME};r=${remaining};t=${resetSeconds}`,
      policy: `${POLICY_NAME};q=${limit};w=${WINDOW_SECONDS}`,
      resetSeconds,
    };
  };
}
