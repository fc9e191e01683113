/**
 * OutageBreaker and ThrottleLog alone, on Vitest's fake clock: who waits, when the server is probed, when
 * the job gives up, and what the logs say.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OutageBreaker, OutageError } from '../../src/remote/outage-breaker.js';
import { ThrottleLog } from '../../src/remote/throttle-log.js';

const BACKOFF = { baseDelayMs: 100, maxDelayMs: 400 };

function breakerWith(probeAnswers: () => boolean, maxOutageMs = 1_000) {
  const warnings: string[] = [];
  const infos: string[] = [];
  const breaker = new OutageBreaker({
    maxOutageMs,
    probe: async () => probeAnswers(),
    backoff: BACKOFF,
    warn: (message) => warnings.push(message),
    info: (message) => infos.push(message),
  });
  return { breaker, warnings, infos };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('OutageBreaker', () => {
  it('closed: admit → the request is sent at once', () => {
    const { breaker } = breakerWith(() => true);
    const sent = vi.fn();
    breaker.admit(sent, vi.fn());
    expect(sent).toHaveBeenCalledOnce();
  });

  it('tripped: later requests wait; the server answers a probe → every paused request resumes, once', async () => {
    let up = false;
    const { breaker, warnings, infos } = breakerWith(() => up);
    const tripped = vi.fn();
    const later = vi.fn();
    breaker.trip('ECONNREFUSED', tripped, vi.fn());
    breaker.admit(later, vi.fn());
    await vi.advanceTimersByTimeAsync(300);
    expect([tripped, later].map((request) => request.mock.calls.length)).toEqual([0, 0]);
    expect(warnings[0]).toMatch(
      /^remote server unreachable since \S+Z \(ECONNREFUSED\); 1 requests paused, retrying in 100 ms/,
    );

    up = true;
    await vi.advanceTimersByTimeAsync(400);
    expect([tripped, later].map((request) => request.mock.calls.length)).toEqual([1, 1]);
    expect(infos).toEqual([expect.stringMatching(/answers again .* resuming 2 requests/)]);
    const resumedAfter = vi.fn();
    breaker.admit(resumedAfter, vi.fn());
    expect(resumedAfter).toHaveBeenCalledOnce();
  });

  it('no answer for longer than the budget → every paused and later request fails with OutageError', async () => {
    const { breaker } = breakerWith(() => false, 1_000);
    const failed = vi.fn();
    const sent = vi.fn();
    breaker.trip('timeout', sent, failed);
    await vi.advanceTimersByTimeAsync(5_000);
    const lateFailure = vi.fn();
    breaker.admit(sent, lateFailure);

    expect(sent).not.toHaveBeenCalled();
    expect(failed.mock.calls[0]![0]).toBeInstanceOf(OutageError);
    expect(String(failed.mock.calls[0]![0].message)).toMatch(/longer than --max-outage 1 s/);
    expect(lateFailure.mock.calls[0]![0]).toBe(failed.mock.calls[0]![0]);
  });

  it('health check answers but requests keep failing → the outage counts from its first give-up, not the probe', async () => {
    const { breaker } = breakerWith(() => true, 1_000);
    const failed = vi.fn();
    const retripUntilFailed = (): void => breaker.trip('HTTP 503', retripUntilFailed, failed);
    retripUntilFailed();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(failed).toHaveBeenCalledOnce();
  });

  it('a request succeeds between trips → a new outage, with a fresh budget', async () => {
    const { breaker } = breakerWith(() => true, 1_000);
    const failed = vi.fn();
    const retripAfterSuccess = (): void => {
      breaker.succeeded();
      if (Date.now() < 3_000 + start) breaker.trip('HTTP 503', retripAfterSuccess, failed);
    };
    const start = Date.now();
    retripAfterSuccess();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(failed).not.toHaveBeenCalled();
  });

  it('closed while tripped → no more probes, nothing resumed', async () => {
    const probe = vi.fn(() => true);
    const { breaker } = breakerWith(probe);
    const sent = vi.fn();
    breaker.trip('ECONNRESET', sent, vi.fn());
    breaker.close();
    await vi.advanceTimersByTimeAsync(5_000);
    expect([probe.mock.calls.length, sent.mock.calls.length]).toEqual([0, 0]);
  });
});

describe('ThrottleLog', () => {
  const policy = { 'ratelimit-policy': '"per-key";q=600;w=60' };

  it('429s within one window → one warning naming the announced limit; the next window → another, with the count', async () => {
    const warnings: string[] = [];
    const log = new ThrottleLog((message) => warnings.push(message));
    for (let i = 0; i < 5; i++) log.throttled(policy);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /the server's limit for this key is 600 requests per 60 s; 1 throttled answers/,
    );

    await vi.advanceTimersByTimeAsync(60_000);
    log.throttled(policy);
    expect(warnings[1]).toMatch(/5 throttled answers since the last warning, 6 in all/);
    expect(log.summary()).toMatch(/throttled 6 requests/);
  });

  it('no RateLimit-Policy header → the warning says so; nothing throttled → no summary', () => {
    const warnings: string[] = [];
    const log = new ThrottleLog((message) => warnings.push(message));
    expect(log.summary()).toBeUndefined();
    log.throttled({});
    expect(warnings[0]).toMatch(/announced no RateLimit-Policy/);
  });
});
