/**
 * The HTTP API as a Fastify instance. It never listens and never reads the environment or files: the
 * caller passes everything in (src/server/run.ts does the process concerns; tests pass fakes).
 */
import underPressure from '@fastify/under-pressure';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Engine } from '../engine/types.js';
import type { KeyStore } from '../keys/key-store.js';
import { logAndMeasureRequests } from './access-log.js';
import { enforceRouteScopes } from './auth.js';
import type { ServerConfig } from './config.js';
import { answerRoutingError, installErrorAnswers } from './errors.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { buildOpenApiDocument } from './openapi.js';
import { registerDocsPage } from './routes/docs-page.js';
import { registerOperationRoutes } from './routes/operations.js';
import { registerPublicRoutes } from './routes/public.js';

export interface BuildServerOptions {
  readonly config: ServerConfig;
  readonly engine: Engine;
  readonly keyStore: KeyStore;
  /** A pino logger; by default one at level info on stdout with the key header redacted. */
  readonly logger?: FastifyBaseLogger;
}

/** Slow clients must not hold sockets forever; generous enough for any real caller of a 16 KiB API. */
const REQUEST_TIMEOUT_MS = 30_000;

export function buildServer(options: BuildServerOptions): FastifyInstance {
  const { config, engine, keyStore } = options;
  const app = Fastify({
    loggerInstance: options.logger ?? createLogger(),
    // One access line per request from onResponse instead of Fastify's two (cheaper, and no URL-only lines).
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors: answerRoutingError,
    bodyLimit: config.bodyLimit,
    requestTimeout: REQUEST_TIMEOUT_MS,
    ...(config.tls === undefined ? {} : { https: { cert: config.tls.cert, key: config.tls.key } }),
  });

  // Both hooks must exist before the first route is added: they inspect every route.
  enforceRouteScopes(app, { keyStore, defaultRateLimit: config.rateLimit });
  installErrorAnswers(app);
  // JSON is the only accepted body; Fastify's default text/plain parser would let other bodies through.
  app.removeContentTypeParser('text/plain');

  const metrics = createMetrics();
  logAndMeasureRequests(app, metrics);
  app.register(underPressure, {
    maxEventLoopDelay: config.maxEventLoopDelayMs,
    sampleInterval: config.pressureSampleIntervalMs,
    retryAfter: 10,
  });

  registerOperationRoutes(app, engine);
  registerPublicRoutes(app, {
    engine,
    keyStore,
    metrics,
    openApi: buildOpenApiDocument({ scoreKey: engine.scoreKey, modelVersion: engine.modelVersion }),
  });
  registerDocsPage(app);
  return app;
}
