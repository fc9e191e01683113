/**
 * One structured line and one metrics observation per answered request: request id (pino's reqId, also
 * the X-Request-Id answer header), client address (after the trusted proxies, see ServerConfig.trustProxy),
 * route, method, status, latency and key id. Never the body, never the key.
 */
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

/** Route label for requests that matched no route, so that scanners cannot blow up metric cardinality. */
const UNMATCHED = 'unmatched';

export function logAndMeasureRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    const ms = reply.elapsedTime;
    const status = reply.statusCode;
    metrics.observe(route, request.method, status, ms / 1000);
    request.log.info(
      { ip: request.ip, route, method: request.method, status, ms, keyId: request.keyId },
      'request',
    );
    done();
  });
}
