/**
 * Remote mode against Outlay's own server on loopback (fake-model engine), directly and through a
 * fault-injecting proxy: files equal local mode's, faults are retried without losing a row, 403 stops the job.
 */

import { readFile, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScoreJob, type ScoreJobOptions } from '../../jobs/score/job.js';
import { InProcessScorer } from '../../jobs/score/local-scorer.js';
import { RemoteScorer } from '../../jobs/score/remote-scorer.js';
import { createEngine } from '../../src/engine/create-engine.js';
import { RemoteClient } from '../../src/remote/client.js';
import { fakeGeo, fakeModel } from '../engine/fakes.js';
import { householdsCsv, scoreJobOptions, tempDir } from '../jobs/score/helpers.js';
import { startTestServer, type TestServer } from '../server/helpers.js';

const engine = createEngine({ model: fakeModel(), geo: fakeGeo });
let server: TestServer;
let dir: string;
let input: string;

beforeAll(async () => {
  server = await startTestServer({ engine, config: { rateLimit: 10_000_000 } });
  dir = await tempDir('remote');
  input = join(dir, 'households.csv');
  await writeFile(input, householdsCsv(300, { badEvery: 37 }));
});
afterAll(async () => {
  await server.close();
});

const options = (outDir: string, startScorer: ScoreJobOptions['startScorer']) =>
  scoreJobOptions(input, outDir, startScorer);

const remote =
  (url: string, key: string, timeoutMs = 2_000) =>
  async (layout: Parameters<ScoreJobOptions['startScorer']>[0]) =>
    new RemoteScorer(
      new RemoteClient({
        baseUrl: url,
        apiKey: key,
        concurrency: 8,
        timeoutMs,
        retry: { retries: 8, baseDelayMs: 5, maxDelayMs: 50, maxRetryAfterMs: 50 },
      }),
      fakeGeo,
      layout,
      'fake-1',
      64,
      8,
    );

async function files(outDir: string) {
  return {
    scored: await readFile(join(outDir, 'households.scored.csv'), 'utf8'),
    rejects: await readFile(join(outDir, 'households.rejects.csv'), 'utf8'),
  };
}

/** Forwards to the server, but answers every `every`-th request with a fault instead (cycling through kinds). */
async function faultyProxy(
  target: string,
  every: number,
): Promise<{ url: string; faults: Record<string, number>; close(): Promise<void> }> {
  const faults: Record<string, number> = { '503': 0, '429': 0, slow: 0, reset: 0 };
  const kinds = Object.keys(faults);
  let count = 0;
  const proxy: Server = createServer((incoming, outgoing) => {
    const n = ++count;
    if (n % every === 0) {
      const kind = kinds[(n / every) % kinds.length]!;
      faults[kind]!++;
      if (kind === '503') return void outgoing.writeHead(503).end('{"message":"unavailable"}');
      if (kind === '429')
        return void outgoing.writeHead(429, { 'retry-after': '0' }).end('{"message":"slow down"}');
      if (kind === 'reset') return void incoming.socket.destroy();
      return void setTimeout(() => outgoing.writeHead(503).end(), 500);
    }
    const upstream = request(
      new URL(incoming.url!, target),
      { method: incoming.method, headers: incoming.headers },
      (response) => {
        outgoing.writeHead(response.statusCode!, response.headers);
        response.pipe(outgoing);
      },
    );
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    faults,
    close: () => new Promise((resolve) => proxy.close(() => resolve())),
  };
}

describe('remote mode', () => {
  it('scenario: remote against the real server on loopback → scored and rejects files identical to local mode', async () => {
    await runScoreJob(options(join(dir, 'local'), async (layout) => new InProcessScorer(engine, layout)));
    const result = await runScoreJob(options(join(dir, 'remote'), remote(server.url, server.keys.all)));
    expect(await files(join(dir, 'remote'))).toEqual(await files(join(dir, 'local')));
    expect(result.rowsIn).toBe(300);
  });

  it('scenario: 503s, 429s with Retry-After, timeouts and connection resets → retried, no row lost, same files', async () => {
    const proxy = await faultyProxy(server.url, 9);
    try {
      await runScoreJob(options(join(dir, 'faulty'), remote(proxy.url, server.keys.all, 200)));
    } finally {
      await proxy.close();
    }
    expect(Object.values(proxy.faults).every((count) => count > 0)).toBe(true);
    expect(await files(join(dir, 'faulty'))).toEqual(await files(join(dir, 'local')));
  });

  it('scenario: a key the server refuses (403) → the job stops with a clear message and no output files', async () => {
    await expect(
      runScoreJob(options(join(dir, 'forbidden'), remote(server.url, server.keys.revoked))),
    ).rejects.toThrow(/refused the API key \(HTTP 403/);
  });
});
