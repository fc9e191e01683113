/** The Redis key store against a real redis-server on loopback, started here (see redis-server.ts). */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KeyStore } from '../../src/keys/key-store.js';
import type { KeyStoreWriter } from '../../src/keys/key-store-writer.js';
import { createKey, listKeys, revokeKey } from '../../src/keys/manage-keys.js';
import { openKeyStore, openKeyStoreWriter } from '../../src/keys/open-key-store.js';
import { REDIS_KEYS } from '../../src/keys/redis-keys.js';
import { outcomeOf, spawnOutlay } from '../reliability/support/outlay-cli.js';
import { captureLogs } from '../server/helpers.js';
import { eventually } from './eventually.js';
import {
  freeLoopbackPort,
  type RunningRedis,
  redisServerInstalled,
  SKIP_WITHOUT_REDIS,
  startRedisServer,
} from './redis-server.js';

describe('Redis key store, unreachable', () => {
  it('when nothing listens at the URL, outlay keys exits 1 naming the address and never the password', async () => {
    const port = await freeLoopbackPort();
    const outcome = await outcomeOf(
      spawnOutlay(['keys', 'list', '--redis-url', `redis://user:s3cret@127.0.0.1:${port}/0`], {
        env: { OUTLAY_KEYS_FILE: '', OUTLAY_REDIS_URL: '' },
      }),
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`cannot reach Redis redis://127.0.0.1:${port}/0`);
    expect(outcome.stderr).not.toContain('s3cret');
  });

  it('when nothing listens at the URL, the server-side store rejects instead of starting without keys', async () => {
    const port = await freeLoopbackPort();
    await expect(
      openKeyStore({ redisUrl: `redis://127.0.0.1:${port}`, logger: captureLogs().logger }),
    ).rejects.toThrow(/cannot reach Redis/);
  });
});

describe(`Redis key store${SKIP_WITHOUT_REDIS}`, () => {
  let redis: RunningRedis;
  let writer: KeyStoreWriter;
  let store: KeyStore | undefined;
  beforeAll(async () => {
    if (!redisServerInstalled) return;
    redis = await startRedisServer();
    writer = await openKeyStoreWriter({ redisUrl: redis.url });
  });
  afterAll(async () => {
    if (!redisServerInstalled) return;
    await writer.close();
    await redis.stop();
  });
  beforeEach(async () => {
    if (!redisServerInstalled) return;
    const { Redis } = await import('ioredis');
    const client = new Redis(redis.url);
    await client.flushdb();
    await client.quit();
  });
  afterEach(() => store?.close());

  it.skipIf(!redisServerInstalled)(
    'when keys are created and revoked, a running server store accepts and then refuses them without reopening',
    async () => {
      store = await openKeyStore({ redisUrl: redis.url, logger: captureLogs().logger, pollIntervalMs: 100 });
      expect(store.size).toBe(0);
      const { key, record } = await createKey(writer, { scopes: ['budgets'], rateLimit: 7 });
      await eventually(() => expect(store?.authenticate(key, Date.now())?.rateLimit).toBe(7));
      await revokeKey(writer, record.id);
      await eventually(() => expect(store?.authenticate(key, Date.now())).toBeUndefined());
      expect(store.size).toBe(0);
    },
  );

  it.skipIf(!redisServerInstalled)(
    'when a key has expired, the next change appends one expired entry to the audit stream',
    async () => {
      const now = new Date();
      const { record } = await createKey(writer, {
        scopes: ['models'],
        expires: new Date(now.getTime() + 60_000),
        now,
      });
      await listKeys(writer, { now: new Date(now.getTime() + 120_000), actor: 'cron' });
      await listKeys(writer, { now: new Date(now.getTime() + 180_000), actor: 'cron' });
      const { Redis } = await import('ioredis');
      const client = new Redis(redis.url);
      const entries = await client.xrange(REDIS_KEYS.audit, '-', '+');
      await client.quit();
      const events = entries.map(([, fields]) => JSON.parse(fields[1]!));
      expect(events.map((event) => event.event)).toEqual(['created', 'expired']);
      expect(events[1]).toMatchObject({ keyId: record.id, actor: 'cron', at: record.expires });
    },
  );

  it.skipIf(!redisServerInstalled)(
    'when the id is unknown, revoke throws naming it and the store',
    async () => {
      await expect(revokeKey(writer, 'key_000000000000')).rejects.toThrow(
        `no key with id key_000000000000 in Redis ${redis.url}`,
      );
    },
  );
});
