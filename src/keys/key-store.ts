/**
 * The server's view of the keys: an index from SHA-256 digest to active key, kept current while the
 * server runs. The server only reads; `outlay keys` writes (key-store-writer.ts).
 *
 * For the server: openKeyStore (open-key-store.ts) follows a keys file (here) or a Redis store shared by
 * several instances (redis-keys.ts). Either resolves to a KeyStore once the keys are loaded and rejects if
 * they cannot be; `close()` stops following them.
 *
 * A change to the keys file is noticed by fs.watch on its directory (the file itself is replaced by
 * rename, which a watch on the file would miss) and, as a fallback for filesystems without reliable
 * events, by polling its stat. A file that fails to load on reload leaves the previous keys in force.
 */
import { timingSafeEqual } from 'node:crypto';
import { type FSWatcher, watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Logger } from 'pino';
import { digestApiKey, isWellFormedApiKey } from './api-key.js';
import { type KeysFile, readKeysFile, type Scope } from './keys-file.js';

export interface ActiveKey {
  readonly id: string;
  readonly scopes: ReadonlySet<Scope>;
  /** Requests per minute, or null for the server's default. */
  readonly rateLimit: number | null;
  /** Epoch milliseconds; Infinity when the key never expires. */
  readonly expiresAt: number;
  readonly digest: Buffer;
}

export interface KeyStore {
  /** The key a request presented, if it is well formed, known, not revoked and not expired at `now`. */
  authenticate(presented: string, now: number): ActiveKey | undefined;
  /** Number of active (not revoked) keys. */
  readonly size: number;
  close(): void;
}

interface FollowOptions {
  readonly logger: Logger;
  /** How often the file's stat (or Redis' version counter) is checked; a file also reloads on watch events. */
  readonly pollIntervalMs?: number;
}

export type FileKeyStoreOptions = FollowOptions & { readonly path: string; readonly redisUrl?: undefined };
export type KeyStoreOptions =
  | FileKeyStoreOptions
  | (FollowOptions & { readonly redisUrl: string; readonly path?: undefined });

/** Revoked keys are left out of the index, so they are indistinguishable from unknown ones. */
export function indexKeys(file: KeysFile): Map<string, ActiveKey> {
  const index = new Map<string, ActiveKey>();
  for (const key of file.keys) {
    if (key.revoked !== null) continue;
    index.set(key.sha256, {
      id: key.id,
      scopes: new Set(key.scopes),
      rateLimit: key.rateLimit,
      expiresAt: key.expires === null ? Number.POSITIVE_INFINITY : Date.parse(key.expires),
      digest: Buffer.from(key.sha256, 'hex'),
    });
  }
  return index;
}

/** A presented key string already proven to be an active key, with its bytes for the constant-time check. */
interface Verified {
  readonly key: ActiveKey;
  readonly presented: Buffer;
}

/**
 * Active keys by digest, plus the verdicts already reached for presented strings: the checksum and SHA-256
 * of a key then run once per key per load of the file instead of once per request (they were a tenth of a
 * request's CPU). Only keys that matched are remembered, so the memo holds at most one entry per active
 * key and guessed keys cannot grow it. It lives and dies with the index: a reload (revocation, new keys)
 * builds a new KeyIndex, so no verdict outlives the file it came from. Expiry is checked on every request.
 */
export class KeyIndex {
  private readonly verified = new Map<string, Verified>();

  constructor(private readonly byDigest: ReadonlyMap<string, ActiveKey>) {}

  get size(): number {
    return this.byDigest.size;
  }

  find(presented: string, now: number): ActiveKey | undefined {
    const known = this.verified.get(presented);
    const key = known === undefined ? this.verify(presented) : this.recheck(known, presented);
    return key === undefined || key.expiresAt <= now ? undefined : key;
  }

  private verify(presented: string): ActiveKey | undefined {
    if (!isWellFormedApiKey(presented)) return undefined;
    const digest = digestApiKey(presented);
    const key = this.byDigest.get(digest.toString('hex'));
    // The Map lookup already matched; the constant-time comparison keeps the final decision independent of
    // how many leading bytes agree, should the index ever be replaced by something that compares prefixes.
    if (key === undefined || !timingSafeEqual(key.digest, digest)) return undefined;
    this.verified.set(presented, { key, presented: Buffer.from(presented, 'latin1') });
    return key;
  }

  /** The same guarantee for a remembered verdict: the decision compares every byte of the key. */
  private recheck(known: Verified, presented: string): ActiveKey | undefined {
    const bytes = Buffer.from(presented, 'latin1');
    return bytes.length === known.presented.length && timingSafeEqual(known.presented, bytes)
      ? known.key
      : undefined;
  }
}

const fileVersion = (s: { mtimeMs: number; size: number; ino: number }) => `${s.ino}:${s.size}:${s.mtimeMs}`;

/** Load the keys file (failing if it cannot be read) and keep following its changes until close(). */
export async function openFileKeyStore(options: FileKeyStoreOptions): Promise<KeyStore> {
  const { path, logger, pollIntervalMs = 2000 } = options;
  let version = fileVersion(await stat(path));
  let index = new KeyIndex(indexKeys(await readKeysFile(path)));
  let reloading: Promise<void> | undefined;
  let reloadAgain = false;

  async function reloadIfChanged(): Promise<void> {
    try {
      const current = fileVersion(await stat(path));
      if (current === version) return;
      const file = await readKeysFile(path);
      version = current;
      index = new KeyIndex(indexKeys(file));
      logger.info({ keysFile: path, activeKeys: index.size }, 'keys file reloaded');
    } catch (error) {
      logger.error({ keysFile: path, err: error }, 'keys file reload failed; keeping the previous keys');
    }
  }

  function scheduleReload(): void {
    if (reloading) {
      reloadAgain = true;
      return;
    }
    reloading = reloadIfChanged().finally(() => {
      reloading = undefined;
      if (reloadAgain) {
        reloadAgain = false;
        scheduleReload();
      }
    });
  }

  const fileName = basename(path);
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(path), { persistent: false }, (_event, changed) => {
      if (changed === null || changed === fileName) scheduleReload();
    });
    watcher.on('error', (error) => logger.warn({ err: error }, 'keys file watch failed; polling only'));
  } catch (error) {
    logger.warn({ err: error }, 'keys file watch unavailable; polling only');
  }
  const poll = setInterval(scheduleReload, pollIntervalMs);
  poll.unref();

  return {
    authenticate: (presented, now) => index.find(presented, now),
    get size() {
      return index.size;
    },
    close() {
      clearInterval(poll);
      watcher?.close();
    },
  };
}
