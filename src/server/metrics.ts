/**
 * A minimal Prometheus registry for what the issue asks: requests by route, method and status, and a
 * latency histogram by route. Hand-rolled because two metrics do not justify a client library, and
 * recording must stay cheap on the hot path (one Map lookup each).
 */
const LATENCY_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

interface Histogram {
  readonly counts: number[];
  sum: number;
  total: number;
}

export interface Metrics {
  observe(route: string, method: string, status: number, seconds: number): void;
  /** The Prometheus text exposition format (version 0.0.4). */
  render(): string;
}

/** Index of the first bucket holding `seconds`, or -1 beyond the last; a plain loop (no closure per request). */
function bucketOf(seconds: number): number {
  for (let i = 0; i < LATENCY_BUCKETS_SECONDS.length; i++)
    if (seconds <= LATENCY_BUCKETS_SECONDS[i]!) return i;
  return -1;
}

const escapeLabel = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export function createMetrics(): Metrics {
  const requests = new Map<string, { labels: string; count: number }>();
  const latencies = new Map<string, Histogram>();

  function histogramFor(route: string): Histogram {
    let histogram = latencies.get(route);
    if (histogram === undefined) {
      histogram = { counts: LATENCY_BUCKETS_SECONDS.map(() => 0), sum: 0, total: 0 };
      latencies.set(route, histogram);
    }
    return histogram;
  }

  return {
    observe(route, method, status, seconds) {
      const id = `${route} ${method} ${status}`;
      const counter = requests.get(id);
      if (counter === undefined) {
        requests.set(id, {
          labels: `route="${escapeLabel(route)}",method="${escapeLabel(method)}",status="${status}"`,
          count: 1,
        });
      } else {
        counter.count++;
      }
      const histogram = histogramFor(route);
      // Buckets are stored non-cumulatively and summed when rendered, so recording touches one slot.
      const bucket = bucketOf(seconds);
      if (bucket !== -1) histogram.counts[bucket]!++;
      histogram.sum += seconds;
      histogram.total++;
    },
    render() {
      const lines = [
        '# HELP outlay_http_requests_total HTTP requests answered, by route, method and status.',
        '# TYPE outlay_http_requests_total counter',
      ];
      for (const { labels, count } of requests.values())
        lines.push(`outlay_http_requests_total{${labels}} ${count}`);
      lines.push(
        '# HELP outlay_http_request_duration_seconds Time from request received to response sent, by route.',
        '# TYPE outlay_http_request_duration_seconds histogram',
      );
      for (const [route, histogram] of latencies) {
        const label = `route="${escapeLabel(route)}"`;
        let cumulative = 0;
        LATENCY_BUCKETS_SECONDS.forEach((bound, i) => {
          cumulative += histogram.counts[i]!;
          lines.push(`outlay_http_request_duration_seconds_bucket{${label},le="${bound}"} ${cumulative}`);
        });
        lines.push(
          `outlay_http_request_duration_seconds_bucket{${label},le="+Inf"} ${histogram.total}`,
          `outlay_http_request_duration_seconds_sum{${label}} ${histogram.sum}`,
          `outlay_http_request_duration_seconds_count{${label}} ${histogram.total}`,
        );
      }
      return `${lines.join('\n')}\n`;
    },
  };
}
