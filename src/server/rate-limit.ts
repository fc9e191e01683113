/**
 * Per-key request limits: a fixed one-minute window per key id, in memory (one instance; see docs/api.md
 * for sharing limits across instances). The decision carries what the IETF RateLimit headers report.
 */
const WINDOW_SECONDS = 60;
const WINDOW_MS = WINDOW_SECONDS * 1000;
const POLICY_NAME = '"per-key"';

interface Window {
  startedAt: number;
  used: number;
}

export interface RateDecision {
  readonly allowed: boolean;
  /** `RateLimit` header value (draft-ietf-httpapi-ratelimit-headers): remaining quota and seconds to reset. */
  readonly header: string;
  readonly policy: string;
  /** Seconds until the window resets, at least 1. */
  readonly resetSeconds: number;
}

export interface RateLimiter {
  take(keyId: string, limit: number, now: number): RateDecision;
}

export function createRateLimiter(): RateLimiter {
  const windows = new Map<string, Window>();
  const policies = new Map<number, string>();
  const policyFor = (limit: number) => {
    let policy = policies.get(limit);
    if (policy === undefined) {
      policy = `${POLICY_NAME};q=${limit};w=${WINDOW_SECONDS}`;
      policies.set(limit, policy);
    }
    return policy;
  };
  return {
    take(keyId, limit, now) {
      let window = windows.get(keyId);
      if (window === undefined || now - window.startedAt >= WINDOW_MS) {
        window = { startedAt: now, used: 0 };
        windows.set(keyId, window);
      }
      const allowed = window.used < limit;
      if (allowed) window.used++;
      const resetSeconds = Math.max(1, Math.ceil((window.startedAt + WINDOW_MS - now) / 1000));
      return {
        allowed,
        header: `${POLICY_NAME};r=${limit - window.used};t=${resetSeconds}`,
        policy: policyFor(limit),
        resetSeconds,
      };
    },
  };
}
