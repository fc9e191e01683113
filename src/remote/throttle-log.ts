/**
 * Makes a server's throttling (HTTP 429) visible: a warning at the first 429 of each rate-limit window,
 * naming the quota the server announced in its `RateLimit-Policy` header (docs/api.md) and how many answers
 * were throttled, and a total when the job ends. Throttled requests themselves wait as `Retry-After` asks.
 */
import type { HttpResponse } from './http-transport.js';

/** The window to assume when the server announces none (Outlay's is one minute). */
const DEFAULT_WINDOW_SECONDS = 60;

interface Quota {
  readonly requests: number;
  readonly windowSeconds: number;
}

export class ThrottleLog {
  private sinceWarning = 0;
  private total = 0;
  private quietUntil = 0;

  constructor(
    private readonly warn: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a 429 answer, and warns if none was reported in the current window. */
  throttled(headers: HttpResponse['headers']): void {
    this.total++;
    this.sinceWarning++;
    const now = this.now();
    if (now < this.quietUntil) return;
    const quota = quotaOf(headers['ratelimit-policy']);
    const limit =
      quota === undefined
        ? 'the server announced no RateLimit-Policy'
        : `the server's limit for this key is ${quota.requests} requests per ${quota.windowSeconds} s`;
    this.warn(
      `remote server is throttling requests (HTTP 429): ${limit}; ${this.sinceWarning} throttled answers since the last warning, ${this.total} in all; requests wait as Retry-After asks (a batch client can have its own key and limit: outlay keys create --rate-limit N)`,
    );
    this.sinceWarning = 0;
    this.quietUntil = now + (quota?.windowSeconds ?? DEFAULT_WINDOW_SECONDS) * 1000;
  }

  /** The job's total, for its last log line; undefined when nothing was throttled. */
  summary(): string | undefined {
    return this.total === 0
      ? undefined
      : `remote server throttled ${this.total} requests (HTTP 429) during the job`;
  }
}

/** `"per-key";q=600;w=60` (an IETF structured-field list item) → 600 requests per 60 s. */
function quotaOf(header: string | string[] | undefined): Quota | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  const requests = text === undefined ? null : /;\s*q=([0-9]+)/.exec(text);
  if (requests === null) return undefined;
  const window = /;\s*w=([0-9]+)/.exec(text!);
  return {
    requests: Number(requests[1]),
    windowSeconds: window === null ? DEFAULT_WINDOW_SECONDS : Number(window[1]),
  };
}
