/**
 * Authentication as deployed: keys made with `outlay keys create`, the server run as `outlay serve` with its
 * own logger on stdout. Keys are stored only as SHA-256 digests, compared in constant time, every kind of
 * bad key gets the same 403, and no key string ever reaches the logs.
 */
import * as crypto from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordFigures } from '../../bench/reliability/figures.js';
import { generateApiKey } from '../../src/keys/api-key.js';
import { createKey } from '../../src/keys/manage-keys.js';
import { openKeyStore } from '../../src/keys/open-key-store.js';
import { createKeyWithCli, runOutlay } from './support/outlay-cli.js';
import { type ServeProcess, startServe } from './support/serve-process.js';

vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});

const ENDPOINTS = [
  '/v1.0/budgets/generate',
  '/v1.0/scores/generate',
  '/v1.0/demographics/models/generate',
] as const;
const VALID_BODY = JSON.stringify({ demographics: { net_annual_income: 52_000, zip: '30301', age: 40 } });
/**
 * A running server reloads the keys file on change (a watch, and a stat poll every 2 s); this only bounds
 * the wait should it never do so, generously enough for a loaded machine.
 */
const REVOCATION_DEADLINE_MS = 120_000;

interface Keys {
  readonly all: string;
  readonly budgetsOnly: string;
  readonly toRevoke: string;
  readonly expired: string;
}

let dir: string;
let keysFile: string;
let keys: Keys;
let server: ServeProcess;
const rejections: { key: string; status: number }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'outlay-reliability-auth-'));
  keysFile = join(dir, 'keys.json');
  keys = {
    all: await createKeyWithCli(keysFile),
    budgetsOnly: await createKeyWithCli(keysFile, 'budgets'),
    toRevoke: await createKeyWithCli(keysFile),
    // The CLI refuses a past expiry, so the expired key is made with the library the CLI calls.
    expired: (
      await createKey(keysFile, {
        scopes: ['budgets', 'scores', 'models'],
        expires: new Date(Date.now() - 1_000),
      })
    ).key,
  };
  server = await startServe({ keysFile });
});

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function post(path: string, key: string | undefined): Promise<{ status: number; body: unknown }> {
  const response = await fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'x-api-key': key }) },
    body: VALID_BODY,
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as unknown };
}

/** The key without its `outlay_` prefix and without its checksum: the secret part on its own. */
const bodyOf = (key: string) => key.slice('outlay_'.length, key.lastIndexOf('_'));

describe('keys file', () => {
  it('when keys are created, the file holds their SHA-256 digests and no key, key body or checksum-less key', async () => {
    const text = await readFile(keysFile, 'utf8');
    for (const key of Object.values(keys)) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(bodyOf(key));
      expect(text).toContain(crypto.createHash('sha256').update(key).digest('hex'));
    }
    expect((await stat(keysFile)).mode & 0o777).toBe(0o600);
  });
});

describe('key comparison', () => {
  it('when a key is authenticated, the decision goes through crypto.timingSafeEqual on two 32-byte digests', async () => {
    const store = await openKeyStore({ path: keysFile, logger: pino({ level: 'silent' }) });
    try {
      const spy = vi.mocked(crypto.timingSafeEqual);
      spy.mockClear();
      expect(store.authenticate(keys.all, Date.now())).toBeDefined();
      expect(spy).toHaveBeenCalled();
      for (const [a, b] of spy.mock.calls) {
        expect([(a as Buffer).length, (b as Buffer).length]).toEqual([32, 32]);
      }
    } finally {
      store.close();
    }
  });
});

describe('POST endpoints with a bad key', () => {
  const flipLastChecksumDigit = (key: string) => key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
  const badKeys: [string, () => string | undefined, readonly string[]][] = [
    ['missing', () => undefined, ENDPOINTS],
    ['empty', () => '', ENDPOINTS],
    ['out of scope (budgets-only key on scores and models)', () => keys.budgetsOnly, ENDPOINTS.slice(1)],
    ['bad checksum', () => flipLastChecksumDigit(keys.all), ENDPOINTS],
    ['wrong prefix', () => keys.all.replace('outlay_', 'outlai_'), ENDPOINTS],
    ['prefix only', () => 'outlay_', ENDPOINTS],
    ['lower-cased', () => keys.all.toLowerCase(), ENDPOINTS],
    ['without its checksum', () => keys.all.slice(0, keys.all.lastIndexOf('_')), ENDPOINTS],
    [
      'another key with its checksum',
      () =>
        `${keys.all.slice(0, keys.all.lastIndexOf('_'))}${keys.budgetsOnly.slice(keys.budgetsOnly.lastIndexOf('_'))}`,
      ENDPOINTS,
    ],
    ['well formed but unknown', () => generateApiKey(), ENDPOINTS],
    ['Bearer-prefixed', () => `Bearer ${keys.all}`, ENDPOINTS],
    ['8 KiB long', () => `outlay_${'A'.repeat(8 * 1024)}`, ENDPOINTS],
  ];
  it.each(badKeys)(
    'when the key is %s, every endpoint answers 403 {"message":"Forbidden"}',
    async (name, key, paths) => {
      for (const path of paths) {
        const answer = await post(path, key());
        rejections.push({ key: name, status: answer.status });
        expect(answer).toEqual({ status: 403, body: { message: 'Forbidden' } });
      }
    },
  );

  it('when the key has expired, every endpoint answers 403', async () => {
    for (const path of ENDPOINTS) {
      const answer = await post(path, keys.expired);
      rejections.push({ key: 'expired', status: answer.status });
      expect(answer).toEqual({ status: 403, body: { message: 'Forbidden' } });
    }
  });

  it('when a key is revoked with `outlay keys revoke` while the server runs, it gets 403 without a restart', async () => {
    expect((await post(ENDPOINTS[0], keys.toRevoke)).status).toBe(200);
    const listed = await runOutlay(['keys', 'list', '--json', '--keys', keysFile]);
    const records = JSON.parse(listed.stdout) as { id: string }[];
    const revoked = await runOutlay(['keys', 'revoke', records[2]!.id, '--keys', keysFile]);
    expect(revoked.code).toBe(0);
    const deadline = Date.now() + REVOCATION_DEADLINE_MS;
    let answer = await post(ENDPOINTS[0], keys.toRevoke);
    while (answer.status !== 403 && Date.now() < deadline) {
      await sleep(200);
      answer = await post(ENDPOINTS[0], keys.toRevoke);
    }
    rejections.push({ key: 'revoked', status: answer.status });
    expect(answer).toEqual({ status: 403, body: { message: 'Forbidden' } });
  });

  it('when the key header is larger than the HTTP header limit, the answer is a JSON 4xx and the server stays up', async () => {
    const response = await fetch(server.url + ENDPOINTS[0], {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': `outlay_${'A'.repeat(64 * 1024)}` },
      body: VALID_BODY,
    });
    const text = await response.text();
    rejections.push({ key: '64 KiB (over the header limit)', status: response.status });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(JSON.parse(text)).toHaveProperty('message');
    expect((await post(ENDPOINTS[0], keys.all)).status).toBe(200);
  });
});

describe('server logs', () => {
  it('after requests with valid, invalid, revoked and expired keys, in headers, paths and query strings, no key string is in the logs', async () => {
    for (const key of Object.values(keys)) {
      await post(ENDPOINTS[1], key);
      await fetch(`${server.url}/v1.0/${key}?api_key=${key}`, {
        method: 'POST',
        headers: { 'x-api-key': key },
      }).then((r) => r.text());
      await fetch(`${server.url}${ENDPOINTS[0]}?x-api-key=${key}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ demographics: { zip: key, net_annual_income: 1 } }),
      }).then((r) => r.text());
    }
    const logs = server.output();
    const lines = logs.split('\n').filter(Boolean);
    const secrets = Object.values(keys).flatMap((key) => [key, bodyOf(key)]);
    const leaks = secrets.filter((secret) => logs.includes(secret));
    await recordFigures('auth', {
      rejections,
      keysSearchedInKeysFile: Object.keys(keys).length,
      logLines: lines.length,
      keysSearchedInLogs: secrets.length,
      leaks: leaks.length,
    });
    expect(lines.length).toBeGreaterThan(20);
    expect(leaks).toEqual([]);
  });
});
