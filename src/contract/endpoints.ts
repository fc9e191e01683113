/**
 * Every path the server answers, written once: routes, the OpenAPI document, the remote client and the
 * benchmarks import them from here.
 */
export const OPERATION_PATHS = {
  budget: '/v1.0/budgets/generate',
  model: '/v1.0/demographics/models/generate',
  score: '/v1.0/scores/generate',
} as const;

/**
 * Keyed on the API listener beside the three operations: what the engine is (any valid key), and the
 * three operations over many households in one request (a key with all three scopes).
 */
export const SERVICE_PATHS = {
  engine: '/v1.0/engine',
  evaluate: '/v1.0/households/evaluate',
} as const;

/** Public on the API listener. */
export const PUBLIC_PATHS = {
  health: '/healthz',
  openApi: '/openapi.json',
  docs: '/docs',
} as const;

/** On the admin listener only (loopback by default): they reveal traffic, key counts and versions. */
export const ADMIN_PATHS = {
  health: '/healthz',
  ready: '/readyz',
  metrics: '/metrics',
} as const;
