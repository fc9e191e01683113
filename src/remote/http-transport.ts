/**
 * JSON GET/POST over HTTP or HTTPS through one undici connection pool for the whole job. undici rather than
 * `node:http`: the job's main thread was the bottleneck of remote mode, and most of its CPU per request went
 * to `node:http`'s client machinery (ClientRequest, agent bookkeeping, IncomingMessage streams, emitters).
 */
import { rootCertificates } from 'node:tls';
import { type Dispatcher, errors, Pool } from 'undici';

export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Bytes, not text: the budget and model answers are read without decoding them (amounts-answer.ts). */
  readonly body: Buffer;
}

export class RequestTimeoutError extends Error {}

export interface TransportOptions {
  /**
   * Connections kept open to the server, one per request in flight. Not pipelined: in paired runs HTTP/1.1
   * pipelining (4 deep) saved no client CPU and lowered throughput, and with it a slow or reset answer
   * would also fail the requests queued behind it on the same connection.
   */
  readonly connections: number;
  /** Longest wait to connect, for the answer's headers after sending, and between pieces of its body. */
  readonly timeoutMs: number;
  /** PEM of a private CA to trust besides the system's (HTTPS). */
  readonly ca?: string | undefined;
  /** Sent with every POST and keyed GET (the API key); not with public GETs such as /healthz. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** undici's own timeout errors, reported as one kind so the client retries them as timeouts. */
const TIMEOUT_ERRORS = [errors.HeadersTimeoutError, errors.BodyTimeoutError, errors.ConnectTimeoutError];

/** Called once per request, with its answer or with why there is none. */
export type ResponseCallback = (error: Error | undefined, response?: HttpResponse) => void;

/**
 * Gathers one small JSON answer. `dispatch` with this handler rather than `request()`: `request()` wraps
 * every answer in a Readable stream and a promise for its text, which cost more than the HTTP parsing.
 */
class ResponseCollector implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: HttpResponse['headers'] = {};
  private readonly chunks: Buffer[] = [];

  constructor(
    private readonly done: ResponseCallback,
    private readonly timeoutMs: number,
  ) {}

  /** Nothing to do; its presence is how undici tells this handler API from its older one. */
  onRequestStart(): void {}

  onResponseStart(_controller: unknown, status: number, headers: HttpResponse['headers']): void {
    this.status = status;
    this.headers = headers;
  }

  onResponseData(_controller: unknown, chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.done(undefined, { status: this.status, headers: this.headers, body });
  }

  onResponseError(_controller: unknown, error: Error): void {
    this.done(
      TIMEOUT_ERRORS.some((kind) => error instanceof kind)
        ? new RequestTimeoutError(`no answer within ${this.timeoutMs} ms (${error.message})`, {
            cause: error,
          })
        : error,
    );
  }
}

export class HttpTransport {
  private readonly pool: Pool;
  /** The base URL's path without its trailing slash, which every request path is appended to. */
  private readonly pathPrefix: string;
  /** Flat name/value lists built once: undici copies them as they are, with no per-call object to build. */
  private readonly getHeaders: string[];
  private readonly keyedGetHeaders: string[];
  private readonly postHeaders: string[];
  /** The POST headers but `accept`. */
  private readonly postHeadersBesidesAccept: string[];
  /** The POST headers with another `accept`, by its value, built on first use. */
  private readonly postHeadersAccepting = new Map<string, string[]>();

  constructor(
    base: URL,
    private readonly options: TransportOptions,
  ) {
    this.pool = new Pool(base.origin, {
      connections: options.connections,
      connectTimeout: options.timeoutMs,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      // A private CA is added to the public roots, not substituted for them.
      ...(options.ca === undefined ? {} : { connect: { ca: [...rootCertificates, options.ca] } }),
    });
    this.pathPrefix = base.pathname.replace(/\/$/, '');
    // Credentials in the base URL become Basic authentication, as `node:http` did with them.
    const auth =
      base.username === '' && base.password === ''
        ? []
        : [
            'authorization',
            `Basic ${Buffer.from(`${decodeURIComponent(base.username)}:${decodeURIComponent(base.password)}`).toString('base64')}`,
          ];
    this.getHeaders = ['accept', 'application/json', ...auth];
    this.keyedGetHeaders = [...this.getHeaders, ...Object.entries(options.headers ?? {}).flat()];
    this.postHeadersBesidesAccept = [
      ...auth,
      ...Object.entries(options.headers ?? {}).flat(),
      'content-type',
      'application/json',
    ];
    this.postHeaders = ['accept', 'application/json', ...this.postHeadersBesidesAccept];
  }

  /**
   * GET `path`, with the fixed headers (the API key) only when `keyed`: public endpoints such as the health
   * check never see the key.
   */
  get(path: string, keyed = false): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      this.send(
        {
          method: 'GET',
          path: this.pathPrefix + path,
          headers: keyed ? this.keyedGetHeaders : this.getHeaders,
        },
        (error, response) => (error === undefined ? resolve(response!) : reject(error)),
      );
    });
  }

  /**
   * Calls `done` with the answer rather than returning a promise: three posts per row made the promises
   * and closures of a promise-based call a large share of the job's garbage. A Buffer body, so a row's
   * three calls share one encoding of it (undici would encode a string each time). `accept` replaces
   * `application/json` in the Accept header.
   */
  post(path: string, body: Buffer, done: ResponseCallback, accept?: string): void {
    const headers = accept === undefined ? this.postHeaders : this.acceptingHeaders(accept);
    this.send({ method: 'POST', path: this.pathPrefix + path, headers, body }, done);
  }

  private acceptingHeaders(accept: string): string[] {
    let headers = this.postHeadersAccepting.get(accept);
    if (headers === undefined) {
      headers = ['accept', accept, ...this.postHeadersBesidesAccept];
      this.postHeadersAccepting.set(accept, headers);
    }
    return headers;
  }

  /** Requests beyond `connections` wait in the pool's queue, so at most that many are in flight. */
  private send(options: Dispatcher.DispatchOptions, done: ResponseCallback): void {
    this.pool.dispatch(options, new ResponseCollector(done, this.options.timeoutMs));
  }

  /** Drops the connections at once (nothing is left in flight when a job ends), so the process can exit. */
  close(): Promise<void> {
    return this.pool.destroy();
  }
}
