/**
 * One structured line and one metrics observation per answered request: request id (pino's reqId, also
 * the X-Request-Id answer header), client address (after the trusted proxies, see ServerConfig.trustProxy),
 * route, method, status, latency and key id. Never the body, never the key.
 */
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

/** Route label for requests that matched no route, so that scanners cannot blow up metric cardinality. */
const UNMATCHED = 'unmatched';

export function logAndMeasureRequests(
  app: FastifyInstance,
  metrics: Metrics,
  accessLog: { readonly enabled: boolean },
): void {
  // A socket learns its peer's address when first asked and keeps it; asked only at the access line, a
  // socket the client had already reset (or that a refusal closed) would answer undefined. Over TLS the
  // encrypted socket is asked, not the TCP one under it.
  app.server.on(app.server instanceof TlsServer ? 'secureConnection' : 'connection', (socket: Socket) => {
    socket.remoteAddress;
  });
  // Its own level, so that `--log-level warn` quiets the server's messages without dropping the access
  // log, and the access log is turned off only on purpose. The line is the one request.log would write.
  const access = app.log.child({}, { level: accessLog.enabled ? 'info' : 'silent' });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    const ms = reply.elapsedTime;
    const status = reply.statusCode;
    metrics.observe(route, request.method, status, ms / 1000);
    access.info(
      { reqId: request.id, ip: request.ip, route, method: request.method, status, ms, keyId: request.keyId },
      'request',
    );
    done();
  });
}
