/**
 * The HTTP API as a Fastify instance. It never listens and never reads the environment or files: the
 * caller passes everything in (src/server/run.ts does the process concerns; tests pass fakes). The admin
 * endpoints (readiness, metrics) are another instance, admin-server.ts.
 */
import underPressure from '@fastify/under-pressure';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Engine } from '../engine/types.js';
import type { KeyStore } from '../keys/key-store.js';
import { logAndMeasureRequests } from './access-log.js';
import { enforceRouteScopes } from './auth.js';
import type { ServerConfig } from './config.js';
import { capConnectionsPerAddress, connectionsPerAddress } from './connection-limits.js';
import { answerRoutingError, installErrorAnswers } from './errors.js';
import { readJsonBodiesOnly } from './json-body.js';
import { createLogger } from './logger.js';
import { createMetrics, type Metrics } from './metrics.js';
import { buildOpenApiDocument } from './openapi.js';
import { installRateLimiter } from './rate-limit.js';
import { registerDocsPage } from './routes/docs-page.js';
import { registerOperationRoutes } from './routes/operations.js';
import { registerPublicRoutes } from './routes/public.js';
import { registerServiceRoutes } from './routes/service.js';
import { installSecurityHeaders, requestIdOf } from './security.js';
import { tlsServerOptions } from './tls.js';

export interface BuildServerOptions {
  readonly config: ServerConfig;
  readonly engine: Engine;
  readonly keyStore: KeyStore;
  /** A pino logger; by default one at level info on stdout with the key header redacted. */
  readonly logger?: FastifyBaseLogger;
  /** Where requests are counted; pass the same to buildAdminServer to serve them. */
  readonly metrics?: Metrics;
}

/**
 * How often Node checks the headers and request timeouts (its default, 30 s, let a slow client hold a
 * socket up to twice the documented limit).
 */
const TIMEOUT_CHECK_INTERVAL_MS = 500;

function socketLimits(config: ServerConfig) {
  if (config.headersTimeoutMs > config.requestTimeoutMs)
    throw new Error('the headers timeout must not exceed the request timeout');
  return { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS };
}

export function buildServer(options: BuildServerOptions): FastifyInstance {
  const { config, engine, keyStore } = options;
  const limits = socketLimits(config);
  const app = Fastify({
    loggerInstance: options.logger ?? createLogger(),
    // One access line per request from onResponse instead of Fastify's two (cheaper, and no URL-only lines).
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors: answerRoutingError,
    bodyLimit: config.bodyLimit,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    genReqId: requestIdOf,
    trustProxy: (config.trustProxy ?? false) as boolean,
    ...(config.tls === undefined
      ? { http: limits }
      : {
          // Node's default handshake timeout is 120 s: a silent TLS client would hold its slot that long.
          https: {
            ...tlsServerOptions(config.tls),
            handshakeTimeout: config.headersTimeoutMs,
            ...limits,
          } as never,
        }),
  });
  app.server.maxConnections = config.maxConnections;
  capConnectionsPerAddress(app.server, connectionsPerAddress(config));

  const limiter = installRateLimiter(app, config.redisUrl);
  // Both hooks must exist before the first route is added: they inspect every route.
  enforceRouteScopes(app, { keyStore, defaultRateLimit: config.rateLimit, limiter });
  installErrorAnswers(app);
  installSecurityHeaders(app, { tls: config.tls !== undefined });
  readJsonBodiesOnly(app, config.acceptTextPlainJson);

  logAndMeasureRequests(app, options.metrics ?? createMetrics(), { enabled: config.accessLog });
  app.register(underPressure, {
    maxEventLoopDelay: config.maxEventLoopDelayMs,
    sampleInterval: config.pressureSampleIntervalMs,
    retryAfter: 10,
  });

  registerOperationRoutes(app, engine, { profile: config.scoreProfile });
  registerServiceRoutes(app, engine, { profile: config.scoreProfile });
  registerPublicRoutes(app);
  registerDocsPage(
    app,
    buildOpenApiDocument({ scoreKey: engine.scoreKey, modelVersion: engine.modelVersion }),
  );
  return app;
}
