/**
 * Prometheus metrics (prom-client): requests by route, method and status, a latency histogram by route,
 * failed reloads of the keys, and prom-client's default process metrics (CPU, memory, heap, event-loop
 * delay, handles, GC).
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { KeyStore } from '../keys/key-store.js';

const LATENCY_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface Metrics {
  observe(route: string, method: string, status: number, seconds: number): void;
  /** The Prometheus text exposition format. */
  render(): Promise<string>;
  readonly contentType: string;
}

export interface MetricsOptions {
  /** Whose failed reloads to count (outlay_keys_reload_failures_total). */
  readonly keyStore?: Pick<KeyStore, 'reloads'>;
}

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const { keyStore } = options;
  if (keyStore !== undefined)
    new Counter({
      name: 'outlay_keys_reload_failures_total',
      help: 'Reloads of the keys that failed, leaving the keys loaded before in force.',
      registers: [registry],
      // Read at each scrape from the key store, which counts them.
      collect() {
        this.reset();
        this.inc(keyStore.reloads.failures);
      },
    });
  const requests = new Counter({
    name: 'outlay_http_requests_total',
    help: 'HTTP requests answered, by route, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'outlay_http_request_duration_seconds',
    help: 'Time from request received to response sent, by route.',
    labelNames: ['route'] as const,
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [registry],
  });
  return {
    observe(route, method, status, seconds) {
      requests.inc({ route, method, status });
      latency.observe({ route }, seconds);
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
