/**
 * One JSON POST/GET over HTTP or HTTPS with a keep-alive agent (one connection pool for the whole job) and
 * a per-request timeout covering connect, send and the whole response.
 */
import http from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import { urlToHttpOptions } from 'node:url';

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
  private readonly send: typeof http.request;
  /** Host, port and credentials of the base URL, resolved once: a URL parse per call was a visible cost. */
  private readonly target: http.RequestOptions;
  /** The base URL's path without its trailing slash, which every request path is appended to. */
  private readonly pathPrefix: string;

  constructor(
    base: URL,
    private readonly options: TransportOptions,
  ) {
    const isHttps = base.protocol === 'https:';
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets };
    // A private CA is added to the public roots, not substituted for them.
    this.agent = isHttps
      ? new https.Agent({
          ...agentOptions,
          ...(options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca] }),
        })
      : new http.Agent(agentOptions);
    this.send = isHttps ? https.request : http.request;
    const { protocol, hostname, port, auth } = urlToHttpOptions(base);
    this.target = { protocol, hostname, port, auth };
    this.pathPrefix = base.pathname.replace(/\/$/, '');
  }

  request(
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      const request = this.send(
        {
          ...this.target,
          method,
          path: this.pathPrefix + path,
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
          // Responses are small JSON documents: appending decoded text is cheaper than collecting Buffers.
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
          });
          response.on('end', () => {
            clearTimeout(timer);
            resolve({
              status: response.statusCode ?? 0,
              body: text,
              // Node builds the header object on first access, and most answers (200s) never need it.
              get headers() {
                return response.headers;
              },
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
