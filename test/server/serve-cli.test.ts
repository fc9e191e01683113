/**
 * `outlay serve` through the real binary (run `npm run build` first; `npm test` does): configured by
 * environment variables, serving the real engine, and shutting down gracefully on SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/keys/manage-keys.js';
import { PACKAGE_ROOT } from '../../src/paths.js';

const BIN = join(PACKAGE_ROOT, 'bin', 'outlay.js');
const BODY = JSON.stringify({ demographics: { zip: '94110', net_annual_income: 90_000 } });

let dir: string;
let child: ChildProcess | undefined;
beforeAll(() => {
  if (!existsSync(join(PACKAGE_ROOT, 'dist', 'jobs', 'cli', 'main.js')))
    throw new Error('run `npm run build` first');
});
afterEach(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/** Start the server on a free port and resolve with its URL (read from the JSON log line). */
async function startServe(env: Record<string, string>): Promise<{ url: string; logs: string[] }> {
  const logs: string[] = [];
  child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      OUTLAY_PORT: '0',
      OUTLAY_ADMIN_PORT: '0',
      OUTLAY_UNRELATED_SETTING: 'ignored',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    child!.once('exit', (code) => reject(new Error(`outlay serve exited with ${code}`)));
    lines.on('line', (line) => {
      logs.push(line);
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (listening) resolve(listening[1]!);
    });
  });
  return { url, logs };
}

describe('outlay serve', () => {
  it('when configured by OUTLAY_* variables, serves the real engine and stops cleanly on SIGTERM, finishing an in-flight request', async () => {
    dir = await mkdtemp(join(tmpdir(), 'outlay-serve-'));
    const keysFile = join(dir, 'keys.json');
    const { key } = await createKey(keysFile, { scopes: ['scores'] });
    const { url, logs } = await startServe({ OUTLAY_KEYS_FILE: keysFile, OUTLAY_RATE_LIMIT: '50' });

    const first = await fetch(`${url}/v1.0/scores/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: BODY,
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"per-key";q=50;w=60');

    // An in-flight request: headers and half the body sent before SIGTERM, the rest after.
    const inFlight = request(`${url}/v1.0/scores/generate`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': key,
        'content-length': Buffer.byteLength(BODY),
      },
    });
    const answered = once(inFlight, 'response');
    inFlight.write(BODY.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const exited = once(child!, 'exit');
    child!.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    inFlight.end(BODY.slice(10));
    const [response] = (await answered) as [import('node:http').IncomingMessage];
    expect(response.statusCode).toBe(200);
    response.resume();

    const [code] = await exited;
    expect(code).toBe(0);
    expect(logs.join('\n')).toContain('stopping');
    expect(logs.join('\n')).not.toContain(key);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it('when the admin port is taken, closes the API listener and exits non-zero', async () => {
    dir = await mkdtemp(join(tmpdir(), 'outlay-serve-'));
    const keysFile = join(dir, 'keys.json');
    await createKey(keysFile, { scopes: ['scores'] });
    const taken = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    try {
      const adminPort = String((taken.address() as AddressInfo).port);
      // The API listener starts first, so startServe sees it listening before the admin listener fails.
      const { url, logs } = await startServe({ OUTLAY_KEYS_FILE: keysFile, OUTLAY_ADMIN_PORT: adminPort });
      const code = child!.exitCode ?? (await once(child!, 'exit'))[0];
      expect(code).toBe(1);
      expect(logs.join('\n')).toContain('EADDRINUSE');
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } finally {
      taken.close();
    }
  });
});
