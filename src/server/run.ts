/**
 * `outlay serve` as a process: load the engine and the keys, build the server, listen, and on SIGTERM or
 * SIGINT stop accepting connections, let in-flight requests finish, then return. Reads files (TLS, keys,
 * model) but not the environment: the CLI resolves flags and environment variables into these options.
 */
import { readFile } from 'node:fs/promises';
import type { Level } from 'pino';
import { openKeyStore } from '../keys/key-store.js';
import { loadEngine } from '../runtime/load-engine.js';
import { buildServer } from './build-server.js';
import { DEFAULT_SERVER_CONFIG } from './config.js';
import { createLogger } from './logger.js';

export interface RunServerOptions {
  readonly host: string;
  readonly port: number;
  readonly keysFile: string;
  readonly tls?: { readonly certFile: string; readonly keyFile: string };
  readonly rateLimit: number;
  readonly bodyLimit: number;
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
  const [cert, key] = await Promise.all([readFile(tls.certFile), readFile(tls.keyFile)]);
  return { tls: { cert, key } };
}

export async function runServer(options: RunServerOptions): Promise<void> {
  const logger = createLogger({ level: options.logLevel });
  const flushLogs = setInterval(() => logger.flush(), LOG_FLUSH_INTERVAL_MS);
  flushLogs.unref();
  const engine = await loadEngine({
    modelPath: options.modelPath,
    geoDir: options.geoDir,
    scoreKey: options.scoreKey,
  });
  const keyStore = await openKeyStore({ path: options.keysFile, logger });
  const app = buildServer({
    config: {
      ...DEFAULT_SERVER_CONFIG,
      rateLimit: options.rateLimit,
      bodyLimit: options.bodyLimit,
      ...(await readTls(options.tls)),
    },
    engine,
    keyStore,
    logger,
  });
  const stopped = nextStopSignal();
  try {
    await app.listen({ host: options.host, port: options.port });
    logger.info({ modelVersion: engine.modelVersion, activeKeys: keyStore.size }, 'ready');
    logger.flush();
    const signal = await stopped;
    logger.info({ signal }, 'stopping: no new connections, finishing in-flight requests');
    const giveUp = setTimeout(() => {
      logger.error(
        { timeoutMs: options.shutdownTimeoutMs },
        'in-flight requests did not finish in time; exiting',
      );
      process.exit(1);
    }, options.shutdownTimeoutMs);
    giveUp.unref();
    await app.close();
    clearTimeout(giveUp);
    logger.info('stopped');
  } finally {
    keyStore.close();
    clearInterval(flushLogs);
    logger.flush();
  }
}
