/**
 * `outlay serve`: the HTTP API. Every flag can also be set by an OUTLAY_* environment variable (named in
 * --help); a flag on the command line wins. Environment variables are mapped one by one rather than with
 * yargs' .env(), which under .strict() would reject unrelated OUTLAY_* variables.
 */
import type { Level } from 'pino';
import type { Argv, CommandModule } from 'yargs';
import { SCORE_PROFILES, type ScoreProfile } from '../../engine/score-details.js';
import { DEFAULT_SERVER_CONFIG, type TlsMinVersion } from '../../server/config.js';
import { DEFAULT_MAX_CONNECTIONS_PER_ADDRESS } from '../../server/connection-limits.js';

interface ServeOption {
  readonly env: string;
  readonly describe: string;
  readonly default?: string | number;
}

const SERVE_OPTIONS = {
  host: { env: 'OUTLAY_HOST', describe: 'Interface to listen on', default: '127.0.0.1' },
  port: { env: 'OUTLAY_PORT', describe: 'Port to listen on', default: 8080 },
  'admin-host': {
    env: 'OUTLAY_ADMIN_HOST',
    describe: 'Interface of the admin listener (/readyz, /metrics, /healthz)',
    default: '127.0.0.1',
  },
  'admin-port': { env: 'OUTLAY_ADMIN_PORT', describe: 'Port of the admin listener', default: 9464 },
  keys: { env: 'OUTLAY_KEYS_FILE', describe: 'Keys file (see `outlay keys`); reloaded when it changes' },
  'tls-cert': { env: 'OUTLAY_TLS_CERT', describe: 'PEM certificate: serve HTTPS (needs --tls-key)' },
  'tls-key': { env: 'OUTLAY_TLS_KEY', describe: 'PEM private key for --tls-cert' },
  'tls-min-version': { env: 'OUTLAY_TLS_MIN_VERSION', describe: 'TLSv1.2 or TLSv1.3', default: 'TLSv1.2' },
  'tls-client-ca': {
    env: 'OUTLAY_TLS_CLIENT_CA',
    describe: 'PEM CA bundle: every client must present a certificate it signed (mutual TLS)',
  },
  'trust-proxy': {
    env: 'OUTLAY_TRUST_PROXY',
    describe: 'Proxies whose X-Forwarded-For gives the client address: true, a hop count, or addresses/CIDRs',
  },
  'redis-url': {
    env: 'OUTLAY_REDIS_URL',
    describe: 'Redis shared by several instances (rate-limit counters, keys), e.g. redis://redis:6379',
  },
  'headers-timeout': {
    env: 'OUTLAY_HEADERS_TIMEOUT',
    describe: 'Seconds a client gets to send the request headers',
    default: DEFAULT_SERVER_CONFIG.headersTimeoutMs / 1000,
  },
  'request-timeout': {
    env: 'OUTLAY_REQUEST_TIMEOUT',
    describe: 'Seconds a client gets to send the whole request',
    default: DEFAULT_SERVER_CONFIG.requestTimeoutMs / 1000,
  },
  'keep-alive-timeout': {
    env: 'OUTLAY_KEEP_ALIVE_TIMEOUT',
    describe: 'Seconds an idle keep-alive connection stays open',
    default: DEFAULT_SERVER_CONFIG.keepAliveTimeoutMs / 1000,
  },
  'max-connections': {
    env: 'OUTLAY_MAX_CONNECTIONS',
    describe: 'Open connections accepted at once',
    default: DEFAULT_SERVER_CONFIG.maxConnections,
  },
  'max-connections-per-address': {
    env: 'OUTLAY_MAX_CONNECTIONS_PER_ADDRESS',
    describe: `Open connections one client address may hold, 0 for no cap (default ${DEFAULT_MAX_CONNECTIONS_PER_ADDRESS}; none with --trust-proxy)`,
  },
  'accept-text-plain': {
    env: 'OUTLAY_ACCEPT_TEXT_PLAIN',
    describe: 'true: accept JSON bodies labelled text/plain',
    default: 'false',
  },
  'rate-limit': {
    env: 'OUTLAY_RATE_LIMIT',
    describe: 'Requests per minute per key, for keys without their own limit',
    default: DEFAULT_SERVER_CONFIG.rateLimit,
  },
  'body-limit': {
    env: 'OUTLAY_BODY_LIMIT',
    describe: 'Largest request body, bytes',
    default: DEFAULT_SERVER_CONFIG.bodyLimit,
  },
  model: { env: 'OUTLAY_MODEL', describe: 'Model artifact (default: the shipped one)' },
  'geo-dir': { env: 'OUTLAY_GEO_DIR', describe: 'Geography extracts directory (default: the shipped one)' },
  'score-key': {
    env: 'OUTLAY_SCORE_KEY',
    describe: 'Key of the main score in score responses (default OUTLAY)',
  },
  'score-profile': {
    env: 'OUTLAY_SCORE_PROFILE',
    describe:
      'standard, or fair-lending: scores computed without age and household type; budgets and models still use them',
    default: 'standard',
  },
  'log-level': {
    env: 'OUTLAY_LOG_LEVEL',
    describe: 'fatal, error, warn, info, debug, trace or silent (the access log has its own switch)',
    default: 'info',
  },
  'access-log': {
    env: 'OUTLAY_ACCESS_LOG',
    describe: 'true: one line per answered request, whatever --log-level says; false: none',
    default: 'true',
  },
  'shutdown-timeout': {
    env: 'OUTLAY_SHUTDOWN_TIMEOUT',
    describe: 'Seconds in-flight requests get to finish after SIGTERM',
    default: 10,
  },
} satisfies Record<string, ServeOption>;

type ServeArgs = { [flag in keyof typeof SERVE_OPTIONS]?: string | number };

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

const TLS_VERSIONS = new Set(['TLSv1.2', 'TLSv1.3']);

function port(flag: string, value: string | number | undefined): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65_535)
    throw new Error(`--${flag} must be 0-65535, got '${value}'`);
  return number;
}

function booleanFlag(flag: string, value: string | number | undefined): boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  throw new Error(`--${flag} must be true or false, got '${value}'`);
}

/** Fastify's trustProxy: true, a hop count, or a comma-separated list of addresses and CIDRs. */
function trustProxy(value: string | number | undefined): string[] | number | boolean | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^\d+$/.test(text)) return Number(text);
  return text.split(',').map((entry) => entry.trim());
}

function tlsOptions(args: ServeArgs) {
  const certFile = optionalString(args['tls-cert']);
  const keyFile = optionalString(args['tls-key']);
  if ((certFile === undefined) !== (keyFile === undefined))
    throw new Error('--tls-cert and --tls-key go together');
  const clientCaFile = optionalString(args['tls-client-ca']);
  if (certFile === undefined || keyFile === undefined) {
    if (clientCaFile !== undefined) throw new Error('--tls-client-ca needs --tls-cert and --tls-key');
    return {};
  }
  const minVersion = String(args['tls-min-version']);
  if (!TLS_VERSIONS.has(minVersion)) throw new Error('--tls-min-version must be TLSv1.2 or TLSv1.3');
  return {
    tls: {
      certFile,
      keyFile,
      minVersion: minVersion as TlsMinVersion,
      ...(clientCaFile === undefined ? {} : { clientCaFile }),
    },
  };
}

function positiveInteger(flag: string, value: string | number | undefined): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1)
    throw new Error(`--${flag} must be a positive integer, got '${value}'`);
  return number;
}

/** Unset: the server's default, which depends on --trust-proxy. */
function perAddressCap(value: string | number | undefined) {
  if (value === undefined) return {};
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0)
    throw new Error(`--max-connections-per-address must be 0 or a positive integer, got '${value}'`);
  return { maxConnectionsPerAddress: number };
}

function scoreProfile(value: string | number | undefined): ScoreProfile {
  const profile = SCORE_PROFILES.find((name) => name === value);
  if (profile === undefined)
    throw new Error(`--score-profile must be one of ${SCORE_PROFILES.join(', ')}, got '${value}'`);
  return profile;
}

const optionalString = (value: string | number | undefined) =>
  value === undefined ? undefined : String(value);

function builder(yargs: Argv): Argv<ServeArgs> {
  for (const [flag, option] of Object.entries(SERVE_OPTIONS) as [string, ServeOption][]) {
    const fromEnv = process.env[option.env];
    yargs.option(flag, {
      type: 'string',
      describe: `${option.describe} [env ${option.env}]`,
      default: fromEnv ?? option.default,
    });
  }
  return yargs as Argv<ServeArgs>;
}

async function handler(args: ServeArgs): Promise<void> {
  const keysFile = optionalString(args.keys);
  const redisUrl = optionalString(args['redis-url']);
  if (keysFile === undefined && redisUrl === undefined) {
    throw new Error('--keys FILE (or OUTLAY_KEYS_FILE) or --redis-url URL (or OUTLAY_REDIS_URL) is required');
  }
  const logLevel = String(args['log-level']);
  if (!LOG_LEVELS.has(logLevel)) throw new Error(`--log-level must be one of ${[...LOG_LEVELS].join(', ')}`);
  // Loaded here, not at the top: every other command would otherwise pay for Fastify and the engine at startup.
  const { runServer } = await import('../../server/run.js');
  await runServer({
    host: String(args.host),
    port: port('port', args.port),
    adminHost: String(args['admin-host']),
    adminPort: port('admin-port', args['admin-port']),
    keysFile,
    ...tlsOptions(args),
    server: {
      rateLimit: positiveInteger('rate-limit', args['rate-limit']),
      bodyLimit: positiveInteger('body-limit', args['body-limit']),
      headersTimeoutMs: positiveInteger('headers-timeout', args['headers-timeout']) * 1000,
      requestTimeoutMs: positiveInteger('request-timeout', args['request-timeout']) * 1000,
      keepAliveTimeoutMs: positiveInteger('keep-alive-timeout', args['keep-alive-timeout']) * 1000,
      maxConnections: positiveInteger('max-connections', args['max-connections']),
      ...perAddressCap(args['max-connections-per-address']),
      accessLog: booleanFlag('access-log', args['access-log']),
      trustProxy: trustProxy(args['trust-proxy']),
      redisUrl,
      acceptTextPlainJson: booleanFlag('accept-text-plain', args['accept-text-plain']),
      scoreProfile: scoreProfile(args['score-profile']),
    },
    modelPath: optionalString(args.model),
    geoDir: optionalString(args['geo-dir']),
    scoreKey: optionalString(args['score-key']),
    logLevel: logLevel as Level | 'silent',
    shutdownTimeoutMs: positiveInteger('shutdown-timeout', args['shutdown-timeout']) * 1000,
  });
}

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'Serve the HTTP API (budgets, scores, models) with API keys',
  builder,
  handler,
};
