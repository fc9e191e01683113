/**
 * Authentication that fails closed. Every route must declare `config.scope`: a service scope (the key
 * must carry it) or 'public'. A route without one stops the server from starting. Keyed routes get an
 * onRequest hook, so the key is checked before the body is read: a rejected key never costs a parse and
 * never produces a 400. The same hook applies the key's rate limit.
 */
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { KeyStore } from '../keys/key-store.js';
import type { Scope } from '../keys/keys-file.js';
import { createRateLimiter, type RateLimiter } from './rate-limit.js';

export type RouteScope = Scope | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    scope?: RouteScope;
  }
  interface FastifyRequest {
    /** Id of the key that authenticated the request (for logs), or null. */
    keyId: string | null;
  }
}

export const FORBIDDEN = Object.freeze({ message: 'Forbidden' });
export const TOO_MANY_REQUESTS = Object.freeze({ message: 'Too many requests' });

interface AuthOptions {
  readonly keyStore: KeyStore;
  /** Requests per minute for keys that set no limit of their own. */
  readonly defaultRateLimit: number;
}

function requireKey(scope: Scope, keyStore: KeyStore, limiter: RateLimiter, defaultRateLimit: number) {
  const authenticate: onRequestHookHandler = (request, reply, done) => {
    const presented = request.headers['x-api-key'];
    const now = Date.now();
    const key = typeof presented === 'string' ? keyStore.authenticate(presented, now) : undefined;
    if (key === undefined) {
      reply.code(403).send(FORBIDDEN);
      return;
    }
    request.keyId = key.id;
    if (!key.scopes.has(scope)) {
      reply.code(403).send(FORBIDDEN);
      return;
    }
    const decision = limiter.take(key.id, key.rateLimit ?? defaultRateLimit, now);
    reply.header('RateLimit-Policy', decision.policy).header('RateLimit', decision.header);
    if (!decision.allowed) {
      reply.code(429).header('Retry-After', decision.resetSeconds).send(TOO_MANY_REQUESTS);
      return;
    }
    done();
  };
  return authenticate;
}

/** Install before any route is added: it checks and equips every route registered afterwards. */
export function enforceRouteScopes(app: FastifyInstance, options: AuthOptions): void {
  const limiter = createRateLimiter();
  app.decorateRequest('keyId', null);
  app.addHook('onRoute', (route) => {
    const scope = route.config?.scope;
    if (scope === undefined) {
      throw new Error(
        `route ${String(route.method)} ${route.url} declares no scope (config.scope); refusing to start`,
      );
    }
    if (scope === 'public') return;
    const existing = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [...existing, requireKey(scope, options.keyStore, limiter, options.defaultRateLimit)];
  });
}
