/**
 * The admin listener: liveness, readiness (model version, active key count) and Prometheus metrics. They
 * tell an outsider about traffic, keys and versions, so they are not on the API listener; `outlay serve`
 * binds this one to loopback unless told otherwise (--admin-host). Like buildServer, it never listens.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { ADMIN_PATHS } from '../contract/endpoints.js';
import type { Engine } from '../engine/types.js';
import type { KeyStore } from '../keys/key-store.js';
import type { Metrics } from './metrics.js';
import { HEALTHY } from './routes/public.js';

export interface BuildAdminServerOptions {
  readonly engine: Engine;
  readonly keyStore: KeyStore;
  /** The API server's metrics (buildServer's `metrics` option). */
  readonly metrics: Metrics;
  readonly logger: FastifyBaseLogger;
  /** The API server: readiness answers 503 once it is closing. */
  readonly api: FastifyInstance;
}

const NOT_READY = Object.freeze({ message: 'Service unavailable' });

export function buildAdminServer(options: BuildAdminServerOptions): FastifyInstance {
  const { engine, keyStore, metrics, api } = options;
  let apiClosing = false;
  api.addHook('preClose', (done) => {
    apiClosing = true;
    done();
  });
  const app = Fastify({
    loggerInstance: options.logger.child({ listener: 'admin' }),
    // Scrapes and probes every few seconds would drown the access log.
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.get(ADMIN_PATHS.health, (_request, reply) => {
    reply.send(HEALTHY);
  });
  // The engine and the key store exist only once loaded. Keys that fail to reload leave the instance
  // enforcing an old list (a revoked key still accepted): unready until they load again.
  app.get(ADMIN_PATHS.ready, (_request, reply) => {
    if (apiClosing) reply.code(503).send(NOT_READY);
    else if (keyStore.reloads.lastError !== undefined)
      reply.code(503).send({
        ...NOT_READY,
        keys: `the last reload failed (${keyStore.reloads.lastError}); the keys loaded before stay in force`,
      });
    else reply.send({ status: 'ready', modelVersion: engine.modelVersion, activeKeys: keyStore.size });
  });
  app.get(ADMIN_PATHS.metrics, async (_request, reply) => {
    reply.type(metrics.contentType).send(await metrics.render());
  });
  return app;
}
