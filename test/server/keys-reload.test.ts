/**
 * A keys file that stops loading while the server runs (corrupted, deleted), against the real server on
 * loopback: the admin listener's readiness turns 503, each failed reload is logged as an error and
 * counted, and restoring the file brings the instance back.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeEngine } from './fake-engine.js';
import { startTestServer, type TestServer } from './helpers.js';

/** A hang guard: the server polls the file every 200 ms here; never a measure of speed. */
const HANG_GUARD_MS = 15_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ engine: createFakeEngine(), pollIntervalMs: 200 });
});
afterAll(() => server?.close());

const readiness = async () => {
  const response = await fetch(`${server.adminUrl}/readyz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await sleep(50);
  }
}

const reloadFailures = async () => {
  const text = await (await fetch(`${server.adminUrl}/metrics`)).text();
  return Number(/^outlay_keys_reload_failures_total (\d+)$/m.exec(text)?.[1]);
};

describe('a keys file that no longer loads', () => {
  it.each([
    ['corrupted', (path: string) => writeFile(path, '{"version": 1, "keys": [')],
    ['deleted', (path: string) => rm(path)],
  ])(
    'when %s, readiness answers 503 with the reason, each failed reload is logged and counted, and restoring it makes the server ready again',
    async (_how, breakFile) => {
      const good = await readFile(server.keysFile);
      const failuresBefore = await reloadFailures();
      await breakFile(server.keysFile);

      const unready = await until(readiness, ({ status }) => status === 503);
      expect(unready.body.message).toBe('Service unavailable');
      expect(unready.body.keys).toMatch(
        /^the last reload failed \(.+\); the keys loaded before stay in force$/,
      );
      await until(reloadFailures, (count) => count >= failuresBefore + 2);
      const errors = server.logs
        .records()
        .filter((line) => line.msg === 'keys reload failed; keeping the previous keys');
      expect(errors.length).toBeGreaterThanOrEqual(2);
      expect(errors.every((line) => line.level === 50)).toBe(true);
      // The keys loaded before still answer meanwhile.
      expect(server.keyStore.authenticate(server.keys.all, Date.now())).toBeDefined();

      await writeFile(server.keysFile, good);
      expect((await until(readiness, ({ status }) => status === 200)).body.status).toBe('ready');
    },
    HANG_GUARD_MS,
  );
});
