/**
 * Test helpers for the HTTP API: a real server on a loopback port with a real keys file, and a log
 * capture. The engine is passed in so that contract tests can use the real one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import type { Engine } from '../../src/engine/types.js';
import type { KeyStore } from '../../src/keys/key-store.js';
import { createKey, type NewKeyOptions, revokeKey } from '../../src/keys/manage-keys.js';
import { openKeyStore } from '../../src/keys/open-key-store.js';
import { buildAdminServer } from '../../src/server/admin-server.js';
import { buildServer } from '../../src/server/build-server.js';
import { DEFAULT_SERVER_CONFIG, type ServerConfig } from '../../src/server/config.js';
import { REDACTED_PATHS } from '../../src/server/logger.js';
import { createMetrics } from '../../src/server/metrics.js';

export const KEY_SPECS = {
  all: { scopes: ['budgets', 'scores', 'models'] },
  budgetsOnly: { scopes: ['budgets'] },
  scoresOnly: { scopes: ['scores'] },
  modelsOnly: { scopes: ['models'] },
  revoked: { scopes: ['budgets', 'scores', 'models'] },
  expired: { scopes: ['budgets', 'scores', 'models'], expires: new Date(Date.now() - 60_000) },
  limited: { scopes: ['budgets'], rateLimit: 3 },
} satisfies Record<string, NewKeyOptions>;

export type KeyName = keyof typeof KEY_SPECS;

export interface LogCapture {
  readonly lines: string[];
  records(): Record<string, unknown>[];
}

export function captureLogs(): { logger: pino.Logger; logs: LogCapture } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  const logger = pino({ level: 'info', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, stream);
  return { logger, logs: { lines, records: () => lines.map((line) => JSON.parse(line)) } };
}

export interface TestServer {
  readonly url: string;
  /** The admin listener: /healthz, /readyz, /metrics. */
  readonly adminUrl: string;
  readonly app: FastifyInstance;
  readonly keys: Record<KeyName, string>;
  readonly keyIds: Record<KeyName, string>;
  readonly keysFile: string;
  readonly keyStore: KeyStore;
  readonly logs: LogCapture;
  close(): Promise<void>;
}

export interface TestServerOptions {
  readonly engine: Engine;
  readonly config?: Partial<ServerConfig>;
  readonly pollIntervalMs?: number;
  /** Another server whose keys file (and keys) this one uses, as a second instance of one deployment. */
  readonly keysOf?: TestServer;
}

type TestKeys = Pick<TestServer, 'keys' | 'keyIds' | 'keysFile'>;

async function createTestKeys(dir: string): Promise<TestKeys> {
  const keysFile = join(dir, 'keys.json');
  const keys = {} as Record<KeyName, string>;
  const keyIds = {} as Record<KeyName, string>;
  for (const [name, spec] of Object.entries(KEY_SPECS) as [KeyName, NewKeyOptions][]) {
    const created = await createKey(keysFile, { ...spec, name });
    keys[name] = created.key;
    keyIds[name] = created.record.id;
  }
  await revokeKey(keysFile, keyIds.revoked);
  return { keys, keyIds, keysFile };
}

/** A keys file holding one key per KEY_SPECS entry (the `revoked` one revoked), and a server using it. */
export async function startTestServer(options: TestServerOptions): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'outlay-server-'));
  const { keys, keyIds, keysFile } = options.keysOf ?? (await createTestKeys(dir));

  const { logger, logs } = captureLogs();
  const keyStore = await openKeyStore({
    path: keysFile,
    logger,
    pollIntervalMs: options.pollIntervalMs ?? 200,
  });
  const metrics = createMetrics();
  const app = buildServer({
    // Load shedding is off unless a test turns it on (the shedding test sets its own threshold): the tests
    // share the server's event loop and block it themselves (validator compilation, browsers, start-up), for
    // seconds on a busy machine, which must not count as server overload.
    config: { ...DEFAULT_SERVER_CONFIG, maxEventLoopDelayMs: 0, ...options.config },
    engine: options.engine,
    keyStore,
    logger,
    metrics,
  });
  const admin = buildAdminServer({ engine: options.engine, keyStore, metrics, logger, api: app });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const adminUrl = await admin.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: address,
    adminUrl,
    app,
    keys,
    keyIds,
    keysFile,
    keyStore,
    logs,
    async close() {
      await app.close();
      await admin.close();
      keyStore.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
  readonly text: string;
}

/** POST a body (an object is sent as JSON; a string is sent as is) and read the answer. */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return read(response);
}

export async function read(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}
