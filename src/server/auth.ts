/**
 * Authentication that fails closed. Every route must declare `config.scope`: a service scope (the key
 * must carry it), several (the key must carry every one), 'any-key' (any valid key) or 'public'. A route without one stops the server from starting. Keyed routes get an
 * onRequest hook, so the key is checked before the body is read: a rejected key never costs a parse and
 * never produces a 400. The same hook applies the key's rate limit. The docs page's routes (added by
 * @fastify/swagger-ui, under /docs) are public.
 */
import type { FastifyInstance, FastifyReply, onRequestHookHandler } from 'fastify';
import { PUBLIC_PATHS } from '../contract/endpoints.js';
import type { KeyStore } from '../keys/key-store.js';
import type { Scope } from '../keys/keys-file.js';
import type { RateDecision, RateLimiter } from './rate-limit.js';

export type RouteScope = Scope | readonly Scope[] | 'any-key' | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    scope?: RouteScope;
  }
  interface FastifyRequest {
    /** Id of the key that authenticated the request (for logs), or null. */
    keyId: string | null;
  }
  interface FastifyReply {
    /**
     * Counts `units` more against the key's rate limit (a bulk request's further households) and, when
     * they exceed it, answers 429 as the key check does. Resolves to whether the request may go on.
     */
    chargeRateLimit(units: number): Promise<boolean>;
  }
}

export const FORBIDDEN = Object.freeze({ message: 'Forbidden' });
export const TOO_MANY_REQUESTS = Object.freeze({ message: 'Too many requests' });

interface AuthOptions {
  readonly keyStore: KeyStore;
  /** Requests per minute for keys that set no limit of their own. */
  readonly defaultRateLimit: number;
  readonly limiter: RateLimiter;
}

/** The scopes a key needs for a keyed route (none for 'any-key'). */
const scopesNeeded = (scope: Exclude<RouteScope, 'public'>): readonly Scope[] =>
  scope === 'any-key' ? [] : typeof scope === 'string' ? [scope] : scope;

function requireKey(scopes: readonly Scope[], options: AuthOptions): onRequestHookHandler {
  const { keyStore, limiter, defaultRateLimit } = options;
  return async (request, reply) => {
    const presented = request.headers['x-api-key'];
    const key = typeof presented === 'string' ? keyStore.authenticate(presented, Date.now()) : undefined;
    if (key === undefined) return reply.code(403).send(FORBIDDEN);
    request.keyId = key.id;
    if (!scopes.every((scope) => key.scopes.has(scope))) return reply.code(403).send(FORBIDDEN);
    const decision = await limiter(request, key.rateLimit ?? defaultRateLimit);
    if (!answerRateDecision(reply, decision)) return reply;
  };
}

/** Sets the rate-limit headers and, over the limit, answers 429; whether the request may go on. */
function answerRateDecision(reply: FastifyReply, decision: RateDecision): boolean {
  reply.header('RateLimit-Policy', decision.policy).header('RateLimit', decision.header);
  if (decision.allowed) return true;
  reply.code(429).header('Retry-After', decision.resetSeconds).send(TOO_MANY_REQUESTS);
  return false;
}

/** Each unit is one more count in the key's window, in the limiter's own store (memory or Redis). */
async function chargeUnits(limiter: RateLimiter, reply: FastifyReply, units: number): Promise<boolean> {
  if (units <= 0) return true;
  const { request } = reply;
  const decisions = await Promise.all(
    Array.from({ length: units }, () => limiter(request, request.keyRateLimit)),
  );
  // Counted in order (one store, one Redis connection): the last has the fewest remaining.
  return answerRateDecision(reply, decisions.find((decision) => !decision.allowed) ?? decisions.at(-1)!);
}

/** Routes of the docs page plugin (@fastify/swagger-ui), which cannot carry a scope of their own. */
const isDocsPageRoute = (url: string) => url === PUBLIC_PATHS.docs || url.startsWith(`${PUBLIC_PATHS.docs}/`);

/** Install before any route is added: it checks and equips every route registered afterwards. */
export function enforceRouteScopes(app: FastifyInstance, options: AuthOptions): void {
  app.decorateRequest('keyId', null);
  app.decorateReply('chargeRateLimit', function (this: FastifyReply, units: number) {
    return chargeUnits(options.limiter, this, units);
  });
  app.addHook('onRoute', (route) => {
    const scope = route.config?.scope ?? (isDocsPageRoute(route.url) ? 'public' : undefined);
    if (scope === undefined) {
      throw new Error(
        `route ${String(route.method)} ${route.url} declares no scope (config.scope); refusing to start`,
      );
    }
    if (scope === 'public') return;
    const existing = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [...existing, requireKey(scopesNeeded(scope), options)];
  });
}
