/** The public and admin endpoints (health, readiness, metrics), key reload, load shedding. */
import { afterEach, describe, expect, it } from 'vitest';
import { revokeKey } from '../../src/keys/manage-keys.js';
import { createFakeEngine } from './fake-engine.js';
import { post, read, startTestServer, type TestServer } from './helpers.js';

const REQUEST = { demographics: { zip: '12345', net_annual_income: 40_000 } };
const BUDGETS = '/v1.0/budgets/generate';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('public and admin endpoints', () => {
  it('when called without a key, /healthz answers on both listeners and /readyz on the admin one', async () => {
    server = await startTestServer({ engine: createFakeEngine() });
    expect((await read(await fetch(`${server.url}/healthz`))).body).toEqual({ status: 'ok' });
    expect((await read(await fetch(`${server.adminUrl}/healthz`))).body).toEqual({ status: 'ok' });
    expect((await read(await fetch(`${server.adminUrl}/readyz`))).body).toEqual({
      status: 'ready',
      modelVersion: 'fake-1',
      activeKeys: 6,
    });
  });

  it('when called on the API listener, /metrics and /readyz answer 404', async () => {
    server = await startTestServer({ engine: createFakeEngine() });
    for (const path of ['/metrics', '/readyz']) {
      const answer = await read(await fetch(server.url + path));
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: 'Not Found' });
    }
  });

  it('when requests were answered, admin /metrics reports them by route and status with a latency histogram and process metrics', async () => {
    server = await startTestServer({ engine: createFakeEngine() });
    await post(server.url + BUDGETS, REQUEST, { 'x-api-key': server.keys.all });
    await post(server.url + BUDGETS, REQUEST, {});
    await fetch(`${server.url}/nope`);
    const response = await fetch(`${server.adminUrl}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toContain(`outlay_http_requests_total{route="${BUDGETS}",method="POST",status="200"} 1`);
    expect(text).toContain(`outlay_http_requests_total{route="${BUDGETS}",method="POST",status="403"} 1`);
    expect(text).toContain('outlay_http_requests_total{route="unmatched",method="GET",status="404"} 1');
    expect(text).toContain('# TYPE outlay_http_request_duration_seconds histogram');
    expect(text).toMatch(new RegExp(`outlay_http_request_duration_seconds_count\\{route="${BUDGETS}"\\} 2`));
    expect(text).toMatch(/outlay_http_request_duration_seconds_bucket\{le="\+Inf",route="[^"]+"\} \d+/);
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toContain('nodejs_heap_size_used_bytes');
    expect(text).toContain('nodejs_eventloop_lag_p99_seconds');
  });
});

describe('keys file reload', () => {
  it('when a key is revoked in the keys file, the running server answers 403 for it within seconds', async () => {
    server = await startTestServer({ engine: createFakeEngine(), pollIntervalMs: 2000 });
    const key = { 'x-api-key': server.keys.all };
    expect((await post(server.url + BUDGETS, REQUEST, key)).status).toBe(200);
    await revokeKey(server.keysFile, server.keyIds.all);
    const started = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - started < 5000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await post(server.url + BUDGETS, REQUEST, key)).status;
    }
    expect(status).toBe(403);
  });
});

describe('load shedding', () => {
  it('when the event loop has been blocked past the limit, sheds with 503 JSON and Retry-After, but /healthz answers', async () => {
    server = await startTestServer({
      engine: createFakeEngine(),
      config: { maxEventLoopDelayMs: 20, pressureSampleIntervalMs: 50 },
    });
    // Shedding lasts one pressure sample (50 ms) after a block, and the sampler may read the delay histogram
    // before it has recorded the block: on a loaded machine one request can miss the window. Each attempt
    // blocks anew; /healthz must answer every time.
    let shed = await blockThenRequest(server);
    for (let attempt = 1; attempt < 20 && shed.status !== 503; attempt++) {
      shed = await blockThenRequest(server);
    }
    expect(shed.status).toBe(503);
    expect(shed.body).toEqual({ message: 'Service unavailable' });
    expect(shed.headers.get('retry-after')).toBe('10');
  });
});

/** Blocks the event loop for 300 ms, as a burst of CPU-heavy work would, then calls an operation and /healthz. */
async function blockThenRequest(target: TestServer) {
  const blockUntil = Date.now() + 300;
  while (Date.now() < blockUntil) {
    // Busy on purpose: the loop must not turn.
  }
  const [shed, health] = await Promise.all([
    post(target.url + BUDGETS, REQUEST, { 'x-api-key': target.keys.all }),
    read(await fetch(`${target.url}/healthz`)),
  ]);
  expect(health.status).toBe(200);
  return shed;
}
