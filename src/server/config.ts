/** What the server needs to know besides the engine and the keys, with the documented defaults. */
export interface ServerConfig {
  /** Largest accepted request body, bytes. */
  readonly bodyLimit: number;
  /** Requests per minute per key, unless the key sets its own. */
  readonly rateLimit: number;
  /** Event-loop delay beyond which requests are shed with 503 instead of queueing. */
  readonly maxEventLoopDelayMs: number;
  /** How often the event-loop delay is sampled. */
  readonly pressureSampleIntervalMs: number;
  /** Certificate and private key (PEM contents, not paths): the server speaks HTTPS when given. */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
}

export const DEFAULT_SERVER_CONFIG: ServerConfig = {
  bodyLimit: 16 * 1024,
  rateLimit: 600,
  maxEventLoopDelayMs: 1000,
  pressureSampleIntervalMs: 1000,
};
