/**
 * One JSON POST/GET over HTTP or HTTPS with a keep-alive agent (one connection pool for the whole job) and
 * a per-request timeout covering connect, send and the whole response.
 */
import http from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';

export interface HttpResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

export class RequestTimeoutError extends Error {}

export interface TransportOptions {
  readonly maxSockets: number;
  readonly timeoutMs: number;
  /** PEM of a private CA to trust besides the system's (HTTPS). */
  readonly ca?: string | undefined;
}

export class HttpTransport {
  private readonly agent: http.Agent;
  private readonly isHttps: boolean;

  constructor(
    private readonly base: URL,
    private readonly options: TransportOptions,
  ) {
    this.isHttps = base.protocol === 'https:';
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets };
    // A private CA is added to the public roots, not substituted for them.
    this.agent = this.isHttps
      ? new https.Agent({
          ...agentOptions,
          ...(options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca] }),
        })
      : new http.Agent(agentOptions);
  }

  request(
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<HttpResponse> {
    const url = new URL(
      path.replace(/^\//, ''),
      this.base.href.endsWith('/') ? this.base : `${this.base.href}/`,
    );
    const send = this.isHttps ? https.request : http.request;
    return new Promise((resolve, reject) => {
      const request = send(
        url,
        {
          method,
          agent: this.agent,
          headers: {
            ...headers,
            accept: 'application/json',
            ...(body === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            clearTimeout(timer);
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            });
          });
          response.on('error', fail);
        },
      );
      const timer = setTimeout(
        () =>
          request.destroy(
            new RequestTimeoutError(`no complete response within ${this.options.timeoutMs} ms`),
          ),
        this.options.timeoutMs,
      );
      function fail(error: Error) {
        clearTimeout(timer);
        reject(error);
      }
      request.on('error', fail);
      request.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
