/**
 * Several API instances sharing one Redis for rate-limit counters enforce one limit per key: a real
 * `redis-server` started on a free loopback port (no persistence), two servers using it. Skipped, with a
 * message, when redis-server is not installed (CI installs it with apt).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeEngine } from './fake-engine.js';
import { post, startTestServer, type TestServer } from './helpers.js';

function redisServerPath(): string | null {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}
const REDIS_SERVER = redisServerPath();
if (REDIS_SERVER === null)
  process.stderr.write('shared-rate-limit.test: skipped, redis-server is not installed\n');

async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  return port;
}

async function startRedis(path: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    path,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout!.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
    child.stdout!.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  child.stdout!.resume();
  return { url: `redis://127.0.0.1:${port}`, process: child };
}

const BUDGETS = '/v1.0/budgets/generate';
const REQUEST = { demographics: { zip: '12345', net_annual_income: 40_000 } };

let redis: { url: string; process: ChildProcess };
let first: TestServer;
let second: TestServer;

describe.skipIf(REDIS_SERVER === null)('rate limits shared through Redis', () => {
  beforeAll(async () => {
    redis = await startRedis(REDIS_SERVER!);
    first = await startTestServer({ engine: createFakeEngine(), config: { redisUrl: redis.url } });
    // The same keys file, so the same key ids: the second instance counts on the first one's counters.
    second = await startTestServer({
      engine: createFakeEngine(),
      config: { redisUrl: redis.url },
      keysOf: first,
    });
  }, 60_000);
  afterAll(async () => {
    await first?.close();
    await second?.close();
    redis?.process.kill('SIGTERM');
  });

  it('when a key limited to 3 a minute calls two instances in turn, the fourth call is refused with 429', async () => {
    const key = { 'x-api-key': first.keys.limited };
    const statuses = [];
    for (const server of [first, second, first, second])
      statuses.push((await post(server.url + BUDGETS, REQUEST, key)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another key keeps its own budget on either instance.
    expect((await post(second.url + BUDGETS, REQUEST, { 'x-api-key': first.keys.all })).status).toBe(200);
  });
});
