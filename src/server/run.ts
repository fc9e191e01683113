/**
 * `outlay serve` as a process: load the engine and the keys, build the server, listen, and on SIGTERM or
 * SIGINT stop accepting connections, let in-flight requests finish, then return. Reads files (TLS, keys,
 * model) but not the environment: the CLI resolves flags and environment variables into these options.
 */
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Level, Logger } from 'pino';
import { openKeyStore } from '../keys/open-key-store.js';
import { loadEngine } from '../runtime/load-engine.js';
import { buildAdminServer } from './admin-server.js';
import { buildServer } from './build-server.js';
import { DEFAULT_SERVER_CONFIG, type ServerConfig, type TlsMinVersion } from './config.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';

export interface RunServerOptions {
  readonly host: string;
  readonly port: number;
  /** The keys file; without one, the keys are read from Redis (`server.redisUrl`). */
  readonly keysFile?: string;
  /** The admin listener (readiness, metrics); loopback by default. */
  readonly adminHost: string;
  readonly adminPort: number;
  readonly tls?: {
    readonly certFile: string;
    readonly keyFile: string;
    readonly minVersion: TlsMinVersion;
    /** CA bundle for client certificates: when given, clients must present one (mutual TLS). */
    readonly clientCaFile?: string;
  };
  /** Limits and options of ServerConfig that the CLI sets as they are. */
  readonly server: Pick<
    ServerConfig,
    | 'rateLimit'
    | 'bodyLimit'
    | 'headersTimeoutMs'
    | 'requestTimeoutMs'
    | 'keepAliveTimeoutMs'
    | 'maxConnections'
    | 'maxConnectionsPerAddress'
    | 'accessLog'
    | 'trustProxy'
    | 'redisUrl'
    | 'acceptTextPlainJson'
    | 'scoreProfile'
  >;
  readonly modelPath?: string;
  readonly geoDir?: string;
  readonly scoreKey?: string;
  readonly logLevel: Level | 'silent';
  /** How long in-flight requests get after a stop signal before the process gives up on them. */
  readonly shutdownTimeoutMs: number;
}

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
/** The logger batches lines (src/server/logger.ts); this bounds how late a line can appear on a quiet server. */
const LOG_FLUSH_INTERVAL_MS = 1000;

function nextStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      for (const name of STOP_SIGNALS) process.off(name, onSignal);
      resolve(signal);
    };
    for (const name of STOP_SIGNALS) process.on(name, onSignal);
  });
}

async function readTls(tls: RunServerOptions['tls']) {
  if (tls === undefined) return {};
  const [cert, key, clientCa] = await Promise.all([
    readFile(tls.certFile),
    readFile(tls.keyFile),
    tls.clientCaFile === undefined ? undefined : readFile(tls.clientCaFile),
  ]);
  return { tls: { cert, key, minVersion: tls.minVersion, ...(clientCa === undefined ? {} : { clientCa }) } };
}

const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));

export async function runServer(options: RunServerOptions): Promise<void> {
  const logger = createLogger({ level: options.logLevel });
  const flushLogs = setInterval(() => logger.flush(), LOG_FLUSH_INTERVAL_MS);
  flushLogs.unref();
  const engine = await loadEngine({
    modelPath: options.modelPath,
    geoDir: options.geoDir,
    scoreKey: options.scoreKey,
  });
  const keyStore = await openKeyStore(keyStoreOptions(options, logger));
  const stopped = nextStopSignal();
  try {
    const metrics = createMetrics();
    const app = buildServer({
      config: { ...DEFAULT_SERVER_CONFIG, ...options.server, ...(await readTls(options.tls)) },
      engine,
      keyStore,
      logger,
      metrics,
    });
    const admin = buildAdminServer({ engine, keyStore, metrics, logger, api: app });
    await listenOrClose([app, admin], options, logger);
    logger.info({ modelVersion: engine.modelVersion, activeKeys: keyStore.size }, 'ready');
    logger.flush();
    await stopOnSignal(await stopped, [app, admin], options.shutdownTimeoutMs, logger);
  } finally {
    keyStore.close();
    clearInterval(flushLogs);
    logger.flush();
  }
}

/**
 * Both listeners, or neither: when one cannot listen (its port taken, its address missing), the other is
 * closed again and the error thrown, so that the process exits instead of serving half started.
 */
async function listenOrClose(
  [app, admin]: readonly [FastifyInstance, FastifyInstance],
  options: RunServerOptions,
  logger: Logger,
): Promise<void> {
  if (options.tls === undefined && !isLoopback(options.host))
    logger.warn(
      { host: options.host },
      'serving plain HTTP on a non-loopback address: keys and bodies cross the network unencrypted unless a TLS proxy is in front',
    );
  try {
    await app.listen({ host: options.host, port: options.port });
    await admin.listen({ host: options.adminHost, port: options.adminPort });
  } catch (error) {
    logger.error({ err: error }, 'could not start; closing the listeners');
    await Promise.allSettled([app.close(), admin.close()]);
    throw error;
  }
}

async function stopOnSignal(
  signal: NodeJS.Signals,
  listeners: readonly FastifyInstance[],
  shutdownTimeoutMs: number,
  logger: Logger,
): Promise<void> {
  logger.info({ signal }, 'stopping: no new connections, finishing in-flight requests');
  const giveUp = setTimeout(() => {
    logger.error({ timeoutMs: shutdownTimeoutMs }, 'in-flight requests did not finish in time; exiting');
    process.exit(1);
  }, shutdownTimeoutMs);
  giveUp.unref();
  for (const listener of listeners) await listener.close();
  clearTimeout(giveUp);
  logger.info('stopped');
}

/** Keys from the file when one is named (Redis then only shares the rate-limit counters), else from Redis. */
function keyStoreOptions(options: RunServerOptions, logger: Logger): Parameters<typeof openKeyStore>[0] {
  if (options.keysFile !== undefined) return { path: options.keysFile, logger };
  const redisUrl = options.server?.redisUrl;
  if (redisUrl === undefined) throw new Error('outlay serve needs a keys file or a Redis URL for its keys');
  return { redisUrl, logger };
}
