/**
 * What the server needs to know besides the engine and the keys, with the documented defaults
 * (docs/api.md, "Running the server" and "Security"). Plain values only: the CLI resolves flags and
 * environment variables into this, and buildServer never reads the environment.
 */

import type { ScoreProfile } from '../engine/score-details.js';

/** Lowest TLS version the server accepts. */
export type TlsMinVersion = 'TLSv1.2' | 'TLSv1.3';

export interface TlsConfig {
  /** Certificate and private key (PEM contents, not paths). */
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
  readonly minVersion?: TlsMinVersion;
  /** CA certificates (PEM) that client certificates must chain to: when given, every client needs one. */
  readonly clientCa?: string | Buffer;
}

export interface ServerConfig {
  /** Largest accepted request body, bytes. */
  readonly bodyLimit: number;
  /** Requests per minute per key, unless the key sets its own. */
  readonly rateLimit: number;
  /** Event-loop delay beyond which requests are shed with 503 instead of queueing. */
  readonly maxEventLoopDelayMs: number;
  /** How often the event-loop delay is sampled. */
  readonly pressureSampleIntervalMs: number;
  /** Time a client gets to finish the TLS handshake, and then to send the request line and headers. */
  readonly headersTimeoutMs: number;
  /** Time a client gets to send the whole request, body included. */
  readonly requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open between requests. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections accepted at once; further connections are closed on arrival. */
  readonly maxConnections: number;
  /**
   * Open connections one client address may hold; 0 for no cap. Unset: 64, or none behind a trusted
   * proxy (connection-limits.ts).
   */
  readonly maxConnectionsPerAddress?: number;
  /** One line per answered request (access-log.ts), whatever the logger's level. */
  readonly accessLog: boolean;
  /** The server speaks HTTPS when given. */
  readonly tls?: TlsConfig;
  /**
   * Fastify's trustProxy: which proxies' X-Forwarded-For to believe for the client address (true, a
   * hop count, or addresses/CIDRs). Unset: the socket's peer address is the client.
   */
  readonly trustProxy?: boolean | number | string | readonly string[];
  /** Redis shared by several instances for rate-limit counters (and keys, see src/keys); unset: in memory. */
  readonly redisUrl?: string;
  /**
   * Accept JSON bodies labelled `text/plain` (some existing clients send them). Safe because keys come
   * only from the x-api-key header, which a cross-site "simple request" cannot carry (docs/api.md, Security).
   */
  readonly acceptTextPlainJson: boolean;
  /**
   * How the scores operation computes the score: `fair-lending` without age and household type (budgets
   * and models still use them; docs/scores.md). Unset: `standard`.
   */
  readonly scoreProfile?: ScoreProfile;
}

export const DEFAULT_SERVER_CONFIG: ServerConfig = {
  bodyLimit: 16 * 1024,
  rateLimit: 600,
  maxEventLoopDelayMs: 1000,
  pressureSampleIntervalMs: 1000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  // Above the 60 s idle timeout of common load balancers, so that they never reuse a connection the
  // server is closing.
  keepAliveTimeoutMs: 72_000,
  maxConnections: 1024,
  accessLog: true,
  acceptTextPlainJson: false,
};
