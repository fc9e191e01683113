/**
 * When to retry a remote call and how long to wait: exponential backoff with full jitter (spreads the
 * retries of many rows so they do not hit a recovering server together), and the server's own Retry-After
 * on 429 and 503.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  readonly retries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A server's Retry-After is honoured up to this long, so one absurd header cannot stall a job for hours. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 6,
  baseDelayMs: 250,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 120_000,
};

export function backoffDelay(
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  attempt: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(random() * ceiling);
}

/** Retry-After as seconds or an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number = Date.now()): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const trimmed = header.trim();
  if (/^[0-9]+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
