/**
 * One circuit breaker for a whole remote job. A server that cannot be reached is not any row's fault: when a
 * request has used up its retries on an outage (no connection, no answer, 502/503/504), every request pauses,
 * the breaker probes the server with growing waits, and the paused requests start again, from their first
 * attempt, once it answers. An outage that outlasts the budget fails the job rather than its rows.
 *
 * The outage is counted from its first give-up until a real request succeeds, not until a probe does: a
 * server that answers its health check but keeps failing requests (shedding load, a broken upstream) is
 * still out, and the budget still bounds how long the job waits for it.
 */
import { backoffDelay, type RetryPolicy } from './retry-policy.js';

/** A restart or a failover takes seconds; two minutes covers them without leaving a dead server's job hanging. */
export const DEFAULT_MAX_OUTAGE_MS = 120_000;

export interface OutageBreakerOptions {
  /** How long the server may stay unreachable before the job fails. */
  readonly maxOutageMs: number;
  /** Whether the server answers now. */
  readonly probe: () => Promise<boolean>;
  /** Waits between probes: the retry policy's exponential ceiling, without jitter (only one prober). */
  readonly backoff: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>;
  readonly warn: (message: string) => void;
  readonly info: (message: string) => void;
  readonly now?: () => number;
}

/** The server stayed unreachable longer than the outage budget. */
export class OutageError extends Error {}

interface Paused {
  readonly resume: () => void;
  readonly fail: (error: Error) => void;
}

export class OutageBreaker {
  /** When the current outage began: the first give-up with no request succeeding since. */
  private downSince: number | undefined;
  private probes = 0;
  private timer: NodeJS.Timeout | undefined;
  private paused: Paused[] = [];
  private failure: OutageError | undefined;
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly options: OutageBreakerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Whether requests are paused while the server is probed. */
  get open(): boolean {
    return this.timer !== undefined || this.probes > 0;
  }

  /** Runs `send` now, or once the server answers again; `fail` if the outage budget runs out first. */
  admit(send: () => void, fail: (error: Error) => void): void {
    if (this.failure !== undefined) fail(this.failure);
    else if (this.open) this.paused.push({ resume: send, fail });
    else send();
  }

  /** A request was answered: any outage is over. */
  succeeded(): void {
    this.downSince = undefined;
  }

  /** A request gave up on an unreachable server (`cause`): it waits, with every other, for the server. */
  trip(cause: string, resume: () => void, fail: (error: Error) => void): void {
    this.downSince ??= this.now();
    this.admitAfterTrip({ resume, fail });
    if (!this.open) this.scheduleProbe(cause);
  }

  /** Stops probing; paused requests are dropped, since the job is over. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.paused = [];
  }

  private admitAfterTrip(request: Paused): void {
    if (this.failure !== undefined) request.fail(this.failure);
    else this.paused.push(request);
  }

  private scheduleProbe(cause: string): void {
    if (this.closed) return;
    const since = this.downSince ?? this.now();
    const left = this.options.maxOutageMs - (this.now() - since);
    if (left <= 0) {
      this.giveUp(since, cause);
      return;
    }
    const delayMs = Math.min(
      left,
      backoffDelay(this.options.backoff, this.probes++, () => 1),
    );
    this.options.warn(
      `remote server unreachable since ${new Date(since).toISOString()} (${cause}); ${this.paused.length} requests paused, retrying in ${delayMs} ms (outage budget --max-outage ${this.options.maxOutageMs / 1000} s)`,
    );
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.options.probe().then((answers) => {
        if (this.closed) return;
        if (answers) this.resume(since);
        else this.scheduleProbe(cause);
      });
    }, delayMs);
  }

  private resume(since: number): void {
    const paused = this.paused;
    this.paused = [];
    this.probes = 0;
    this.options.info(
      `remote server answers again (unreachable since ${new Date(since).toISOString()}); resuming ${paused.length} requests`,
    );
    for (const request of paused) request.resume();
  }

  private giveUp(since: number, cause: string): void {
    this.failure = new OutageError(
      `the remote server has been unreachable since ${new Date(since).toISOString()} (${cause}), longer than --max-outage ${this.options.maxOutageMs / 1000} s; the job stops (with --resume, run it again to continue from the last checkpoint)`,
    );
    const paused = this.paused;
    this.paused = [];
    this.probes = 0;
    for (const request of paused) request.fail(this.failure);
  }
}
