/**
 * The key store in Redis, shared by several API instances (`--redis-url` on `outlay keys` and
 * `outlay serve`). It holds the same records as the keys file, under three Redis keys:
 *
 * - `outlay:keys`          hash: key id → the key's record as JSON (hash, scopes, dates; never the key)
 * - `outlay:keys:version`  counter, incremented by every change; servers poll it to know when to reload
 * - `outlay:keys:audit`    stream, append-only: one entry per key event, field `json` holding the same
 *                          object as a line of the file store's audit log (audit-log.ts)
 *
 * A change is an optimistic transaction: WATCH the hash, read it, compute the change, then MULTI/EXEC the
 * changed records, their audit entries and the version together; EXEC fails if another writer changed the
 * hash in between, and the change is computed again on the new contents. A server reads the version and
 * the hash in one MULTI, so it never sees half a change. Choose the database by the URL's path
 * (redis://host:6379/2) to keep deployments apart.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { type ActiveKey, indexKeys, KeyIndex, type KeyStore, ReloadHealth } from './key-store.js';
import type { KeyChange, KeyStoreWriter } from './key-store-writer.js';
import { checkKeysFile, type KeysFile, type StoredKey } from './keys-file.js';

export const REDIS_KEYS = {
  records: 'outlay:keys',
  version: 'outlay:keys:version',
  audit: 'outlay:keys:audit',
} as const;

/** Enough for dozens of simultaneous writers: each failed attempt means another writer's change landed. */
const MAX_ATTEMPTS = 100;
/** Random pause between attempts, so that writers colliding once spread out. */
const RETRY_JITTER_MS = 20;
const DEFAULT_POLL_INTERVAL_MS = 1000;

/** The URL without its credentials, for messages and logs. */
export function describeRedisUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(
      `--redis-url: '${url.replace(/\/\/[^@/]*@/, '//***@')}' is not a URL (redis://host:port)`,
    );
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw new Error(`--redis-url: the scheme must be redis: or rediss:, got ${parsed.protocol}`);
  return `Redis ${parsed.protocol}//${parsed.hostname}:${parsed.port || '6379'}${parsed.pathname}`;
}

async function connect(url: string, options: RedisOptions, onError: (error: Error) => void): Promise<Redis> {
  const description = describeRedisUrl(url);
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, ...options });
  redis.on('error', onError);
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`cannot reach ${description}: ${(error as Error).message}`);
  }
  return redis;
}

function keysOf(hash: Record<string, string>, description: string): KeysFile {
  const keys = Object.entries(hash).map(([id, json]) => {
    try {
      return JSON.parse(json) as StoredKey;
    } catch {
      throw new Error(`${description}: the record of ${id} in ${REDIS_KEYS.records} is not valid JSON`);
    }
  });
  // A hash has no order; the file store lists keys in the order they were created.
  keys.sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id));
  return checkKeysFile({ version: 1, keys }, `${description} ${REDIS_KEYS.records}`);
}

function changedKeys(before: KeysFile, after: KeysFile): StoredKey[] {
  const previous = new Map(before.keys.map((key) => [key.id, JSON.stringify(key)]));
  return after.keys.filter((key) => previous.get(key.id) !== JSON.stringify(key));
}

function throwIfFailed(replies: [Error | null, unknown][]): void {
  const failed = replies.find(([error]) => error !== null);
  if (failed !== undefined) throw failed[0]!;
}

type Outcome<T> = { readonly committed: true; readonly result: T } | { readonly committed: false };

/** One optimistic attempt: WATCH the records, apply `change`, and commit unless another writer got there first. */
async function tryUpdate<T>(
  redis: Redis,
  description: string,
  change: (current: KeysFile) => KeyChange<T>,
): Promise<Outcome<T>> {
  await redis.watch(REDIS_KEYS.records);
  const current = keysOf(await redis.hgetall(REDIS_KEYS.records), description);
  let changed: KeyChange<T>;
  try {
    changed = change(current);
  } catch (error) {
    await redis.unwatch();
    throw error;
  }
  if (changed.events.length === 0) {
    await redis.unwatch();
    return { committed: true, result: changed.result };
  }
  const transaction = redis.multi();
  for (const key of changedKeys(current, changed.file))
    transaction.hset(REDIS_KEYS.records, key.id, JSON.stringify(key));
  for (const event of changed.events) transaction.xadd(REDIS_KEYS.audit, '*', 'json', JSON.stringify(event));
  transaction.incr(REDIS_KEYS.version);
  const replies = await transaction.exec();
  if (replies === null) return { committed: false };
  throwIfFailed(replies);
  return { committed: true, result: changed.result };
}

export async function openRedisKeyStoreWriter(url: string): Promise<KeyStoreWriter> {
  const description = describeRedisUrl(url);
  // A command-line run fails at once rather than waiting for Redis to come back.
  const redis = await connect(url, { retryStrategy: () => null, maxRetriesPerRequest: 0 }, () => {});
  return {
    description,
    async update<T>(change: (current: KeysFile) => KeyChange<T>) {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const outcome = await tryUpdate(redis, description, change);
        if (outcome.committed) return outcome.result;
        await sleep(Math.random() * RETRY_JITTER_MS);
      }
      throw new Error(`${description}: the keys changed under this change ${MAX_ATTEMPTS} times; try again`);
    },
    close: async () => {
      await redis.quit();
    },
  };
}

export interface RedisKeyStoreOptions {
  readonly redisUrl: string;
  readonly logger: Logger;
  /** How often the version counter is read. */
  readonly pollIntervalMs?: number;
}

/**
 * The server's view of the Redis store: every key indexed in memory (authentication stays a synchronous
 * lookup, as with the file), reloaded when the version counter moves. Loading fails if Redis cannot be
 * reached at start; afterwards an unreachable Redis or a bad record leaves the previous keys in force
 * while the client reconnects.
 */
export async function openRedisKeyStore(options: RedisKeyStoreOptions): Promise<KeyStore> {
  const { redisUrl, logger, pollIntervalMs = DEFAULT_POLL_INTERVAL_MS } = options;
  const description = describeRedisUrl(redisUrl);
  const redis = await connect(redisUrl, {}, (error) =>
    logger.warn({ keyStore: description, err: error }, 'key store connection error'),
  );

  async function load(): Promise<{ version: string | null; index: KeyIndex }> {
    const replies = await redis.multi().get(REDIS_KEYS.version).hgetall(REDIS_KEYS.records).exec();
    if (replies === null) throw new Error(`${description}: reading the keys was aborted`);
    throwIfFailed(replies);
    const [[, version], [, hash]] = replies as [[null, string | null], [null, Record<string, string>]];
    return { version, index: new KeyIndex(indexKeys(keysOf(hash, description))) };
  }

  let current: Awaited<ReturnType<typeof load>>;
  try {
    current = await load();
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  let polling = false;
  const reloads = new ReloadHealth(logger, { keyStore: description });

  async function reloadIfChanged(): Promise<void> {
    if (polling) return;
    polling = true;
    try {
      const version = await redis.get(REDIS_KEYS.version);
      if (version === current.version && reloads.lastError === undefined) return;
      current = await load();
      reloads.succeeded();
      logger.info({ keyStore: description, activeKeys: current.index.size }, 'keys reloaded');
    } catch (error) {
      reloads.failed(error);
    } finally {
      polling = false;
    }
  }

  const poll = setInterval(reloadIfChanged, pollIntervalMs);
  poll.unref();
  return {
    authenticate: (presented: string, now: number): ActiveKey | undefined =>
      current.index.find(presented, now),
    get size() {
      return current.index.size;
    },
    reloads,
    close() {
      clearInterval(poll);
      redis.disconnect();
    },
  };
}
