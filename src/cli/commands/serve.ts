/**
 * `outlay serve`: the HTTP API. Every flag can also be set by an OUTLAY_* environment variable (named in
 * --help); a flag on the command line wins. Environment variables are mapped one by one rather than with
 * yargs' .env(), which under .strict() would reject unrelated OUTLAY_* variables.
 */
import type { Level } from 'pino';
import type { Argv, CommandModule } from 'yargs';
import { DEFAULT_SERVER_CONFIG } from '../../server/config.js';

interface ServeOption {
  readonly env: string;
  readonly describe: string;
  readonly default?: string | number;
}

const SERVE_OPTIONS = {
  host: { env: 'OUTLAY_HOST', describe: 'Interface to listen on', default: '127.0.0.1' },
  port: { env: 'OUTLAY_PORT', describe: 'Port to listen on', default: 8080 },
  keys: { env: 'OUTLAY_KEYS_FILE', describe: 'Keys file (see `outlay keys`); reloaded when it changes' },
  'tls-cert': { env: 'OUTLAY_TLS_CERT', describe: 'PEM certificate: serve HTTPS (needs --tls-key)' },
  'tls-key': { env: 'OUTLAY_TLS_KEY', describe: 'PEM private key for --tls-cert' },
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
  'log-level': {
    env: 'OUTLAY_LOG_LEVEL',
    describe: 'fatal, error, warn, info, debug, trace or silent',
    default: 'info',
  },
  'shutdown-timeout': {
    env: 'OUTLAY_SHUTDOWN_TIMEOUT',
    describe: 'Seconds in-flight requests get to finish after SIGTERM',
    default: 10,
  },
} satisfies Record<string, ServeOption>;

type ServeArgs = { [flag in keyof typeof SERVE_OPTIONS]?: string | number };

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

function positiveInteger(flag: string, value: string | number | undefined): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1)
    throw new Error(`--${flag} must be a positive integer, got '${value}'`);
  return number;
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
  if (keysFile === undefined) throw new Error('--keys FILE (or OUTLAY_KEYS_FILE) is required');
  const certFile = optionalString(args['tls-cert']);
  const keyFile = optionalString(args['tls-key']);
  if ((certFile === undefined) !== (keyFile === undefined))
    throw new Error('--tls-cert and --tls-key go together');
  const logLevel = String(args['log-level']);
  if (!LOG_LEVELS.has(logLevel)) throw new Error(`--log-level must be one of ${[...LOG_LEVELS].join(', ')}`);
  const port = Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`--port must be 0-65535, got '${args.port}'`);
  // Loaded here, not at the top: every other command would otherwise pay for Fastify and the engine at startup.
  const { runServer } = await import('../../server/run.js');
  await runServer({
    host: String(args.host),
    port,
    keysFile,
    ...(certFile !== undefined && keyFile !== undefined ? { tls: { certFile, keyFile } } : {}),
    rateLimit: positiveInteger('rate-limit', args['rate-limit']),
    bodyLimit: positiveInteger('body-limit', args['body-limit']),
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
