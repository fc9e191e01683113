/** The unauthenticated operational endpoints: liveness, readiness, metrics and the OpenAPI document. */
import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine/types.js';
import type { KeyStore } from '../../keys/key-store.js';
import type { Metrics } from '../metrics.js';
import type { OpenApiDocument } from '../openapi.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** @fastify/under-pressure's per-route override; returning nothing lets the request through. */
    pressureHandler?: () => undefined;
  }
}

interface PublicRouteOptions {
  readonly engine: Engine;
  readonly keyStore: KeyStore;
  readonly metrics: Metrics;
  readonly openApi: OpenApiDocument;
}

const HEALTHY = Object.freeze({ status: 'ok' });

export function registerPublicRoutes(app: FastifyInstance, options: PublicRouteOptions): void {
  const { engine, keyStore, metrics } = options;
  const openApiJson = JSON.stringify(options.openApi);

  // Liveness must answer even when load is being shed, or an orchestrator would restart a busy server.
  app.get(
    '/healthz',
    { config: { scope: 'public', pressureHandler: () => undefined } },
    (_request, reply) => {
      reply.send(HEALTHY);
    },
  );
  // The engine and the key store exist only once loaded; while closing, Fastify answers 503 itself.
  app.get('/readyz', { config: { scope: 'public' } }, (_request, reply) => {
    reply.send({ status: 'ready', modelVersion: engine.modelVersion, activeKeys: keyStore.size });
  });
  app.get('/metrics', { config: { scope: 'public' } }, (_request, reply) => {
    reply.type('text/plain; version=0.0.4; charset=utf-8').send(metrics.render());
  });
  app.get('/openapi.json', { config: { scope: 'public' } }, (_request, reply) => {
    reply.type('application/json; charset=utf-8').send(openApiJson);
  });
}
