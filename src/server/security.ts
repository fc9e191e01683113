/**
 * Response headers and connection rules that hold for every route (docs/api.md, "Security"):
 * - helmet's headers: `X-Content-Type-Options: nosniff`, a Content-Security-Policy (the docs
 *   page's assets are all served from here), `X-Frame-Options` and `frame-ancestors 'none'` against
 *   framing, and `Strict-Transport-Security` when the server speaks TLS;
 * - `Cache-Control: no-store`: answers carry incomes and ZIP codes (the docs page's static assets set
 *   their own caching);
 * - `X-Request-Id`: the caller's, when it is a short token of safe characters, else a generated UUID; it
 *   is the request id of the access log line;
 * - a response sent before the request's body was read (403, 404, 405, 413, 429, 503…) closes the
 *   connection, so that a client trickling a refused body cannot hold the socket until the request
 *   timeout.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/** What a caller's request id may look like: enough for UUIDs, ULIDs and trace ids, nothing to inject. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const REQUEST_ID_HEADER = 'x-request-id';
const ONE_YEAR_SECONDS = 31_536_000;

/** Fastify's genReqId. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

export function installSecurityHeaders(app: FastifyInstance, options: { readonly tls: boolean }): void {
  // helmet's middleware is built once here. @fastify/helmet calls helmet(options) for every request,
  // parsing the CSP directives again, in two hooks (one async): 6.5 µs per request against 2.3 µs for
  // the headers alone (bench/NOTES.md, HTTP API).
  const setHelmetHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        // Swagger UI sets inline styles on its elements and loads the document and its images from here.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'frame-ancestors': ["'none'"],
        'upgrade-insecure-requests': options.tls ? [] : null,
      },
    },
    frameguard: { action: 'deny' },
    strictTransportSecurity: options.tls ? { maxAge: ONE_YEAR_SECONDS } : false,
  });
  // helmet throws rather than passing an error on (since 8.1), so its callback only ever continues.
  app.addHook('onRequest', (request, reply, done) => setHelmetHeaders(request.raw, reply.raw, () => done()));
  // In onSend, unlike helmet's onRequest hook, so that answers given by earlier onRequest hooks (404,
  // 405) carry them too. Static assets set their own cache-control.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff').header(REQUEST_ID_HEADER, request.id);
    if (!request.raw.complete) reply.header('connection', 'close');
    done(null, payload);
  });
}
