/**
 * Client for a remote service that speaks the Outlay contract (normally `outlay serve`). A household takes
 * the three operations; each HTTP attempt holds one of `concurrency` connections (the rest wait in the
 * pool's queue), so at most that many requests are in flight, and waits between retries hold none. The
 * calls are callbacks and a row has one promise (the batch scorer bounds rows in flight with p-limit):
 * per-call promises and async frames were about a quarter of the job's garbage. Outcomes:
 * - 200: the response; 400: the server's field errors (the row is rejected, never retried);
 * - 429, 5xx, timeouts, network errors: retried with backoff, then reported as a failure with its kind;
 * - 401/403/404: thrown as RemoteFatalError, since every other row would fail the same way.
 */
import type { ErrorItem, ScoreResponse } from '../contract/schemas.js';
import { OPERATION_PATHS } from '../server/endpoints.js';
import { AmountsAnswer, OffContractAnswer } from './amounts-answer.js';
import {
  type HttpResponse,
  HttpTransport,
  RequestTimeoutError,
  type ResponseCallback,
} from './http-transport.js';
import { backoffDelay, DEFAULT_RETRY_POLICY, type RetryPolicy, retryAfterMs } from './retry-policy.js';

export interface RemoteClientOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly retry?: RetryPolicy;
  readonly ca?: string | undefined;
  /** Told about each retry, for logs. */
  readonly onRetry?: (event: { path: string; attempt: number; delayMs: number; cause: string }) => void;
}

export class RemoteFatalError extends Error {}

/** Budget and model amounts in CATEGORIES order. */
export type RemoteHousehold = {
  readonly budget: Float64Array;
  readonly model: Float64Array;
  readonly score: ScoreResponse;
};

export type RemoteOutcome = { readonly ok: true; readonly value: RemoteHousehold } | RemoteRejection;

/** A row the remote would not score: its field errors (400), or why it still failed after retries (`reason`). */
export interface RemoteRejection {
  readonly ok: false;
  readonly errors: readonly ErrorItem[];
  readonly reason?: string;
}

type CallOutcome<T> = { readonly ok: true; readonly value: T } | RemoteRejection;

/**
 * Reads a 200 answer's body; undefined when it is not JSON (retried as an invalid response, as a proxy's
 * error page may be), OffContractAnswer when the response schema refuses it (the row is rejected).
 */
type AnswerReader<T> = (body: Buffer) => T | OffContractAnswer | undefined;

const BUDGET_ANSWER = new AmountsAnswer('budget');
const MODEL_ANSWER = new AmountsAnswer('model');
const readBudget: AnswerReader<Float64Array> = (body) => BUDGET_ANSWER.read(body);
const readModel: AnswerReader<Float64Array> = (body) => MODEL_ANSWER.read(body);
const readScore: AnswerReader<ScoreResponse> = (body) =>
  parseJson(body.toString()) as ScoreResponse | undefined;

/** A failure worth another attempt, with its stable kind (for reject reasons) and the server's wait, if any. */
class Retryable {
  constructor(
    readonly kind: string,
    readonly detail: string,
    readonly waitMs?: number,
  ) {}
}

export class RemoteClient {
  private readonly transport: HttpTransport;
  private readonly retry: RetryPolicy;
  /** Set by close(): the pool is gone, so waiting to retry would only keep the process alive. */
  private closed = false;

  constructor(private readonly options: RemoteClientOptions) {
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new RemoteFatalError(`--api-url ${options.baseUrl} is not a URL`);
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new RemoteFatalError(`--api-url ${options.baseUrl} must be http:// or https://`);
    }
    this.transport = new HttpTransport(base, {
      connections: options.concurrency,
      timeoutMs: options.timeoutMs,
      ca: options.ca,
      headers: { 'x-api-key': options.apiKey },
    });
    this.retry = options.retry ?? DEFAULT_RETRY_POLICY;
  }

  /** The model version the server reports on /readyz, or undefined if it does not say. */
  async modelVersion(): Promise<string | undefined> {
    try {
      const response = await this.transport.get('/readyz');
      const json =
        response.status === 200 ? (JSON.parse(response.body.toString()) as { modelVersion?: unknown }) : {};
      return typeof json.modelVersion === 'string' ? json.modelVersion : undefined;
    } catch {
      return undefined;
    }
  }

  household(body: unknown): Promise<RemoteOutcome> {
    const bytes = Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      let budget: CallOutcome<Float64Array> | undefined;
      let model: CallOutcome<Float64Array> | undefined;
      let score: CallOutcome<ScoreResponse> | undefined;
      const settle = () => {
        if (budget === undefined || model === undefined || score === undefined) return;
        if (!budget.ok) resolve(budget);
        else if (!model.ok) resolve(model);
        else if (!score.ok) resolve(score);
        else resolve({ ok: true, value: { budget: budget.value, model: model.value, score: score.value } });
      };
      this.call(OPERATION_PATHS.budget, bytes, readBudget, 0, reject, (outcome) => {
        budget = outcome;
        settle();
      });
      this.call(OPERATION_PATHS.model, bytes, readModel, 0, reject, (outcome) => {
        model = outcome;
        settle();
      });
      this.call(OPERATION_PATHS.score, bytes, readScore, 0, reject, (outcome) => {
        score = outcome;
        settle();
      });
    });
  }

  close(): Promise<void> {
    this.closed = true;
    return this.transport.close();
  }

  /** Calls `done` with the outcome of `path` after any retries, or `fail` with a RemoteFatalError. */
  private call<T>(
    path: string,
    body: Buffer,
    read: AnswerReader<T>,
    attempt: number,
    fail: (error: unknown) => void,
    done: (outcome: CallOutcome<T>) => void,
  ): void {
    const answered: ResponseCallback = (error, response) => {
      let outcome: CallOutcome<T> | Retryable;
      try {
        outcome = error === undefined ? this.interpret(path, response!, read) : retryableFailure(error);
      } catch (fatal) {
        fail(fatal);
        return;
      }
      if (!(outcome instanceof Retryable)) {
        done(outcome);
        return;
      }
      if (attempt >= this.retry.retries || this.closed) {
        done({
          ok: false,
          errors: [
            {
              path: '',
              message: `remote ${path}: ${outcome.detail} (gave up after ${attempt + 1} attempts)`,
            },
          ],
          reason: `remote: ${outcome.kind} after retries`,
        });
        return;
      }
      const delayMs =
        outcome.waitMs === undefined
          ? backoffDelay(this.retry, attempt)
          : Math.min(outcome.waitMs, this.retry.maxRetryAfterMs);
      this.options.onRetry?.({ path, attempt: attempt + 1, delayMs, cause: outcome.detail });
      setTimeout(() => this.call(path, body, read, attempt + 1, fail, done), delayMs);
    };
    this.transport.post(path, body, answered);
  }

  private interpret<T>(
    path: string,
    response: HttpResponse,
    read: AnswerReader<T>,
  ): CallOutcome<T> | Retryable {
    const { status } = response;
    if (status === 200) {
      const value = read(response.body);
      if (value === undefined)
        return new Retryable('invalid response', `HTTP 200 with a body that is not the ${path} answer`);
      if (value instanceof OffContractAnswer) return offContract(path, value);
      return { ok: true, value };
    }
    const text = response.body.toString();
    const json = parseJson(text);
    const message = typeof json?.message === 'string' ? json.message : text.slice(0, 200);
    if (status === 400) {
      const errors = Array.isArray(json?.errors) ? (json.errors as ErrorItem[]) : [{ path: '', message }];
      return { ok: false, errors };
    }
    if (status === 429 || status >= 500) {
      const header = response.headers['retry-after'];
      return new Retryable(
        status === 429 ? 'HTTP 429' : 'HTTP 5xx',
        `HTTP ${status} ${message}`,
        retryAfterMs(typeof header === 'string' ? header : undefined),
      );
    }
    if (status === 401 || status === 403) {
      throw new RemoteFatalError(
        `the API at ${this.options.baseUrl} refused the API key (HTTP ${status}: ${message}); check --api-key or OUTLAY_API_KEY and the key's scopes`,
      );
    }
    if (status === 404) {
      throw new RemoteFatalError(
        `the API at ${this.options.baseUrl} has no ${path} (HTTP 404); check --api-url`,
      );
    }
    return {
      ok: false,
      errors: [{ path: '', message: `remote ${path}: HTTP ${status} ${message}` }],
      reason: `remote: HTTP ${status}`,
    };
  }
}

/**
 * A row whose answer the contract refuses (an amount of 1234.56, -5 or none): rejected with the schema's
 * reasons, never written, and not retried (a server off the contract answers the same again).
 */
function offContract(path: string, answer: OffContractAnswer): RemoteRejection {
  return {
    ok: false,
    errors: [
      { path: '', message: `remote ${path} answered off the contract: ${answer.problems.join('; ')}` },
    ],
    reason: 'remote: answer off the contract',
  };
}

/** A request that got no answer: timeouts and network errors are worth another attempt. */
function retryableFailure(error: Error): Retryable {
  if (error instanceof RequestTimeoutError) return new Retryable('timeout', error.message);
  const code = (error as NodeJS.ErrnoException).code;
  return new Retryable('network error', `${code ?? ''} ${error.message}`.trim());
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
