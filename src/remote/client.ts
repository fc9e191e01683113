/**
 * Client for a remote service that speaks the Outlay contract (normally `outlay serve`). A server that
 * offers POST /v1.0/households/evaluate (GET /v1.0/engine says so) takes many households per request
 * (`households`); any other takes the three operations per household (`household`). Each HTTP attempt holds one of `concurrency` connections (the rest wait in the
 * pool's queue), so at most that many requests are in flight, and waits between retries hold none. The
 * calls are callbacks and a row has one promise (the batch scorer bounds rows in flight with p-limit):
 * per-call promises and async frames were about a quarter of the job's garbage. Outcomes:
 * - 200: the response; 400: the server's field errors (the row is rejected, never retried);
 * - network errors, timeouts, 502/503/504: retried with backoff; a request that still fails pauses the
 *   whole job in the outage breaker (outage-breaker.ts) until the server answers, then starts again;
 * - 429: waited out as Retry-After asks, without using up retries, and logged (throttle-log.ts);
 * - other 5xx and invalid answers: retried with backoff, then reported as a failure with its kind;
 * - 401/403/404: thrown as RemoteFatalError, since every other row would fail the same way.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_SCORE_KEY, type ErrorItem, type ScoreResponse } from '../contract/schemas.js';
import { OPERATION_PATHS, PUBLIC_PATHS, SERVICE_PATHS } from '../server/endpoints.js';
import { explainedScoreResponseSchema } from '../server/operations.js';
import { EngineInfo, EVALUATE_ROWS_MEDIA_TYPE } from '../server/service-schemas.js';
import { AmountsAnswer } from './amounts-answer.js';
import { boundedOutcome } from './answer-bounds.js';
import { CheckedAnswer, OffContractAnswer, offContractRejection } from './checked-answer.js';
import {
  EvaluateAnswer,
  explainedValues,
  inRows,
  type RemoteHousehold,
  type RemoteOutcome,
  type RemoteRejection,
} from './evaluate-answer.js';
import {
  type HttpResponse,
  HttpTransport,
  RequestTimeoutError,
  type ResponseCallback,
} from './http-transport.js';
import { DEFAULT_MAX_OUTAGE_MS, OutageBreaker } from './outage-breaker.js';
import { backoffDelay, DEFAULT_RETRY_POLICY, type RetryPolicy, retryAfterMs } from './retry-policy.js';
import { ThrottleLog } from './throttle-log.js';

export interface RemoteClientOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly retry?: RetryPolicy;
  readonly ca?: string | undefined;
  /** How long the server may stay unreachable before every request fails (default 120 s). */
  readonly maxOutageMs?: number;
  /** Where outages and throttling are reported (a pino logger will do); silent by default. */
  readonly log?: RemoteLog;
  /** The main score's key the answers must carry (default OUTLAY). */
  readonly scoreKey?: string;
}

/** What GET /v1.0/engine tells about the server, or what the job assumes without it. */
export interface RemoteEngine {
  /** The server's model version, or a text saying why it is not known. */
  readonly modelVersion: string;
  /** The year of the server's prices; undefined when it does not say. */
  readonly priceYear: number | undefined;
  /** Most households per evaluate request when the server offers the endpoint; undefined: three calls per row. */
  readonly maxHouseholds: number | undefined;
}

export interface RemoteLog {
  warn(message: string): void;
  info(message: string): void;
}

const SILENT: RemoteLog = { warn: () => {}, info: () => {} };

export class RemoteFatalError extends Error {}

export type { RemoteHousehold, RemoteOutcome, RemoteRejection };

type CallOutcome<T> = { readonly ok: true; readonly value: T } | RemoteRejection;

/**
 * Reads a 200 answer's body; undefined when it is not JSON (retried as an invalid response, as a proxy's
 * error page may be), OffContractAnswer when the response schema refuses it (the row is rejected).
 */
type AnswerReader<T> = (body: Buffer, contentType: string | undefined) => T | OffContractAnswer | undefined;

const BUDGET_ANSWER = new AmountsAnswer('budget');
const MODEL_ANSWER = new AmountsAnswer('model');
const ENGINE_INFO = new CheckedAnswer(EngineInfo);
const readBudget: AnswerReader<Float64Array> = (body) => BUDGET_ANSWER.read(body);
const readModel: AnswerReader<Float64Array> = (body) => MODEL_ANSWER.read(body);

/** The scores with their `details`, which the batch's explanation columns are read from (jobs/batch/score). */
const EXPLAINED_SCORE_PATH = `${OPERATION_PATHS.score}?explain=true`;
const EXPLAINED_EVALUATE_PATH = `${SERVICE_PATHS.evaluate}?explain=true`;
/** The three operations one household is scored with when the server has no evaluate, as reasons name them. */
const BUDGET_MODEL_SCORE = `${OPERATION_PATHS.budget}, ${OPERATION_PATHS.model} and ${OPERATION_PATHS.score}`;
/** The evaluate answer in rows where the server offers it, else JSON. */
const ROWS_OR_JSON = `${EVALUATE_ROWS_MEDIA_TYPE}, application/json;q=0.5`;

/**
 * What a failure worth another attempt says about the server: unreachable (`outage`, the breaker's
 * business), throttling this key (`throttled`), or failing this one request (`request`).
 */
type FailureScope = 'outage' | 'throttled' | 'request';

/** A failure worth another attempt, with its stable kind (for reject reasons) and the server's wait, if any. */
class Retryable {
  constructor(
    readonly scope: FailureScope,
    readonly kind: string,
    readonly detail: string,
    readonly waitMs?: number,
  ) {}
}

/** Answers that mean the server (or the proxy before it) cannot serve anything now, not this request. */
const OUTAGE_STATUSES = new Set([502, 503, 504]);

export class RemoteClient {
  private readonly transport: HttpTransport;
  private readonly retry: RetryPolicy;
  private readonly breaker: OutageBreaker;
  private readonly throttling: ThrottleLog;
  private readonly log: RemoteLog;
  private readonly scoreKey: string;
  private readonly readScore: AnswerReader<ScoreResponse>;
  private readonly evaluateAnswer: EvaluateAnswer;
  /** Whether the log has said in which form the server answers evaluate requests. */
  private evaluateFormLogged = false;
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
    this.log = options.log ?? SILENT;
    this.scoreKey = options.scoreKey ?? DEFAULT_SCORE_KEY;
    const scoreAnswer = new CheckedAnswer(explainedScoreResponseSchema(this.scoreKey));
    this.readScore = (body) => scoreAnswer.read(body) as ScoreResponse | OffContractAnswer | undefined;
    this.evaluateAnswer = new EvaluateAnswer(this.scoreKey);
    this.throttling = new ThrottleLog((message) => this.log.warn(message));
    this.breaker = new OutageBreaker({
      maxOutageMs: options.maxOutageMs ?? DEFAULT_MAX_OUTAGE_MS,
      probe: () => this.answersHealthCheck(),
      backoff: this.retry,
      warn: (message) => this.log.warn(message),
      info: (message) => this.log.info(message),
    });
  }

  /**
   * Refuses to start a job against a server that does not answer: GET /healthz, public and cheap, which an
   * Outlay server answers as soon as it listens (and even while it sheds load), tried as often as a
   * request would be, so that one lost connection does not cancel a night's run.
   */
  async checkReachable(): Promise<void> {
    await this.getPatiently('its health check', PUBLIC_PATHS.health, (status) => OUTAGE_STATUSES.has(status));
  }

  /**
   * What the server says about itself on GET /v1.0/engine (keyed, on the API listener). A server without
   * it (an older or another one) gets a model version saying so, and three calls per row; a key it refuses
   * stops the job here; a score key other than the job's stops it too, since every score answer would be
   * refused.
   */
  async describeEngine(): Promise<RemoteEngine> {
    const path = SERVICE_PATHS.engine;
    const response = await this.getPatiently(
      'the engine description',
      path,
      (status) => status === 429 || OUTAGE_STATUSES.has(status),
    );
    if (response.status === 401 || response.status === 403) throw this.refusedKey(response);
    const info = response.status === 200 ? ENGINE_INFO.read(response.body) : undefined;
    if (info === undefined || info instanceof OffContractAnswer) {
      const why =
        info instanceof OffContractAnswer
          ? `its GET ${path} answered off the contract: ${info.problems.join('; ')}`
          : `it has no GET ${path} (HTTP ${response.status})`;
      return { modelVersion: `unknown (remote: ${why})`, priceYear: undefined, maxHouseholds: undefined };
    }
    if (info.score_key !== this.scoreKey) {
      throw new RemoteFatalError(
        `the API at ${this.options.baseUrl} answers scores under the key "${info.score_key}", not "${this.scoreKey}"; give --score-key ${info.score_key}`,
      );
    }
    return {
      modelVersion: info.model_version,
      priceYear: info.price_year,
      maxHouseholds: info.evaluate?.max_households,
    };
  }

  /**
   * The outcomes of many households in one POST /v1.0/households/evaluate, in order: each household's
   * answer, or its field errors as the operations would name them. Asks for the answer in rows, which a
   * server that offers them gives (any other answers JSON). A request that fails as a whole (after its
   * retries) rejects every household in it with the same reason. `rows` false asks for JSON alone: the
   * rows answer carries no lender mode, which a job with loans reads.
   */
  households(bodies: readonly unknown[], rows = true): Promise<RemoteOutcome[]> {
    const bytes = Buffer.from(JSON.stringify({ households: bodies }));
    const read: AnswerReader<RemoteOutcome[]> = (body, contentType) => {
      const outcomes = this.evaluateAnswer.read(body, contentType, bodies.length);
      if (!this.evaluateFormLogged && Array.isArray(outcomes)) {
        this.evaluateFormLogged = true;
        this.log.info(`remote: evaluate answers in ${inRows(contentType) ? 'rows' : 'JSON'}`);
      }
      return outcomes;
    };
    return new Promise((resolve, reject) => {
      this.call(
        EXPLAINED_EVALUATE_PATH,
        bytes,
        read,
        0,
        reject,
        (outcome) => {
          resolve(outcome.ok ? outcome.value : bodies.map(() => outcome));
        },
        rows ? ROWS_OR_JSON : 'application/json',
      );
    });
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
        else {
          const value = {
            budget: budget.value,
            model: model.value,
            ...explainedValues(score.value, this.scoreKey),
          };
          resolve(boundedOutcome(value, BUDGET_MODEL_SCORE));
        }
      };
      this.call(OPERATION_PATHS.budget, bytes, readBudget, 0, reject, (outcome) => {
        budget = outcome;
        settle();
      });
      this.call(OPERATION_PATHS.model, bytes, readModel, 0, reject, (outcome) => {
        model = outcome;
        settle();
      });
      this.call(EXPLAINED_SCORE_PATH, bytes, this.readScore, 0, reject, (outcome) => {
        score = outcome;
        settle();
      });
    });
  }

  close(): Promise<void> {
    this.closed = true;
    this.breaker.close();
    const throttled = this.throttling.summary();
    if (throttled !== undefined) this.log.warn(throttled);
    return this.transport.close();
  }

  /**
   * Why GET /healthz found the server unreachable (no answer, or 502/503/504), or undefined when the server
   * answered: any other status (a 429 from a proxy in front of it, say) still means it is there.
   */
  private async healthCheckFailure(): Promise<string | undefined> {
    const answer = await this.getOnce(PUBLIC_PATHS.health);
    if (typeof answer === 'string') return answer;
    return OUTAGE_STATUSES.has(answer.status) ? `HTTP ${answer.status}` : undefined;
  }

  /** The answer to GET `path` (with the key when `keyed`), or why there was none. */
  private async getOnce(path: string, keyed = false): Promise<HttpResponse | string> {
    try {
      return await this.transport.get(path, keyed);
    } catch (error) {
      return retryableFailure(error as Error).detail;
    }
  }

  /**
   * GET `path`, tried as often as a request would be while it gets no answer or one `retried` says is
   * worth another attempt; RemoteFatalError when the server never answers otherwise.
   */
  private async getPatiently(
    what: string,
    path: string,
    retried: (status: number) => boolean,
  ): Promise<HttpResponse> {
    const keyed = path !== PUBLIC_PATHS.health;
    for (let attempt = 0; ; attempt++) {
      const answer = await this.getOnce(path, keyed);
      if (typeof answer !== 'string' && !retried(answer.status)) return answer;
      if (attempt >= this.retry.retries) {
        const failure = typeof answer === 'string' ? answer : `HTTP ${answer.status}`;
        throw new RemoteFatalError(
          `the API at ${this.options.baseUrl} does not answer ${what} (GET ${path}: ${failure}; gave up after ${attempt + 1} attempts); check that the server is running and --api-url`,
        );
      }
      await sleep(backoffDelay(this.retry, attempt));
    }
  }

  private async answersHealthCheck(): Promise<boolean> {
    return (await this.healthCheckFailure()) === undefined;
  }

  /**
   * Calls `done` with the outcome of `path` after any retries, or `fail` with a RemoteFatalError (or the
   * breaker's OutageError). Every attempt passes the breaker, so none is sent while the server is out.
   */
  private call<T>(
    path: string,
    body: Buffer,
    read: AnswerReader<T>,
    attempt: number,
    fail: (error: unknown) => void,
    done: (outcome: CallOutcome<T>) => void,
    accept?: string,
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
        this.breaker.succeeded();
        done(outcome);
        return;
      }
      if (outcome.scope === 'throttled') this.throttling.throttled(response!.headers);
      this.retryLater(outcome, attempt, {
        again: (next) => this.call(path, body, read, next, fail, done, accept),
        giveUp: () => done(gaveUp(path, outcome, attempt)),
        fail,
      });
    };
    this.breaker.admit(() => this.transport.post(path, body, answered, accept), fail);
  }

  /**
   * Schedules the next attempt after `failure`. A 429 does not use up an attempt (the server answers; it
   * asks the job to slow down); a request out of attempts on an outage waits in the breaker and then
   * starts over; any other gives up.
   */
  private retryLater(
    failure: Retryable,
    attempt: number,
    next: { again: (attempt: number) => void; giveUp: () => void; fail: (error: Error) => void },
  ): void {
    if (this.closed) {
      next.giveUp();
      return;
    }
    const counted = failure.scope !== 'throttled';
    if (counted && attempt >= this.retry.retries) {
      if (failure.scope === 'outage') this.breaker.trip(failure.detail, () => next.again(0), next.fail);
      else next.giveUp();
      return;
    }
    const delayMs =
      failure.waitMs === undefined
        ? backoffDelay(this.retry, attempt)
        : Math.min(failure.waitMs, this.retry.maxRetryAfterMs);
    setTimeout(() => next.again(counted ? attempt + 1 : attempt), delayMs);
  }

  private refusedKey(response: HttpResponse): RemoteFatalError {
    return new RemoteFatalError(
      `the API at ${this.options.baseUrl} refused the API key (HTTP ${response.status}: ${messageOf(response)}); check --api-key or OUTLAY_API_KEY and the key's scopes`,
    );
  }

  private interpret<T>(
    path: string,
    response: HttpResponse,
    read: AnswerReader<T>,
  ): CallOutcome<T> | Retryable {
    if (response.status !== 200) return this.interpretFailure(path, response);
    const header = response.headers['content-type'];
    const value = read(response.body, typeof header === 'string' ? header : undefined);
    if (value === undefined)
      return new Retryable(
        'request',
        'invalid response',
        `HTTP 200 with a body that is not the ${path} answer`,
      );
    if (value instanceof OffContractAnswer) return offContract(path, value);
    return { ok: true, value };
  }

  /** What a status other than 200 means: the row's field errors, another attempt, or the job's end. */
  private interpretFailure(path: string, response: HttpResponse): RemoteRejection | Retryable {
    const { status } = response;
    const message = messageOf(response);
    if (status === 400) {
      const json = parseJson(response.body.toString());
      const errors = Array.isArray(json?.errors) ? (json.errors as ErrorItem[]) : [{ path: '', message }];
      return { ok: false, errors };
    }
    if (status === 429 || status >= 500) return retryableStatus(response, message);
    if (status === 401 || status === 403) throw this.refusedKey(response);
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
  return offContractRejection(path, answer.problems);
}

/** A 429 (this key throttled) or 5xx answer, with the wait its Retry-After asks for. */
function retryableStatus(response: HttpResponse, message: string): Retryable {
  const { status } = response;
  const header = response.headers['retry-after'];
  const waitMs = retryAfterMs(typeof header === 'string' ? header : undefined);
  if (status === 429) return new Retryable('throttled', 'HTTP 429', `HTTP ${status} ${message}`, waitMs);
  const kind = OUTAGE_STATUSES.has(status) ? 'outage' : 'request';
  return new Retryable(kind, 'HTTP 5xx', `HTTP ${status} ${message}`, waitMs);
}

/** A request that got no answer: timeouts and network errors are worth another attempt. */
function retryableFailure(error: Error): Retryable {
  if (error instanceof RequestTimeoutError) return new Retryable('outage', 'timeout', error.message);
  const code = (error as NodeJS.ErrnoException).code;
  return new Retryable('outage', 'network error', `${code ?? ''} ${error.message}`.trim());
}

/** The rejection of a request that still failed after its retries. */
function gaveUp(path: string, failure: Retryable, attempt: number): RemoteRejection {
  return {
    ok: false,
    errors: [
      { path: '', message: `remote ${path}: ${failure.detail} (gave up after ${attempt + 1} attempts)` },
    ],
    reason: `remote: ${failure.kind} after retries`,
  };
}

/** The `message` of an error answer, or the start of its body. */
function messageOf(response: HttpResponse): string {
  const text = response.body.toString();
  const json = parseJson(text);
  return typeof json?.message === 'string' ? json.message : text.slice(0, 200);
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
