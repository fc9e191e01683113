/**
 * The write side of the key store, used by `outlay keys`: every change is a read-modify-write applied
 * atomically against every other writer, together with its audit events.
 *
 * - Keys file: an exclusive lock (proper-lockfile: a `<keys file>.lock` directory, refreshed while held
 *   and taken over as stale 10 s after its holder stopped refreshing it, e.g. was killed) around reading
 *   the file, appending the audit lines and replacing the file (temporary file + fsync + rename).
 * - Redis: an optimistic transaction (WATCH/MULTI/EXEC), see redis-keys.ts.
 *
 * The server never writes; it reads through key-store.ts.
 */
import lockfile from 'proper-lockfile';
import { type AuditEvent, appendAuditLines, auditLogPathOf } from './audit-log.js';
import { type KeysFile, readKeysFile, readKeysFileOrEmpty, writeKeysFile } from './keys-file.js';

export interface KeyChange<T> {
  /** The keys after the change; stored only when there are events. */
  readonly file: KeysFile;
  /** One per change of state, in order; none means nothing changed and nothing is written. */
  readonly events: readonly AuditEvent[];
  readonly result: T;
}

export interface UpdateOptions {
  /** A missing keys file counts as an empty one (the first `keys create`); otherwise it is an error. */
  readonly mayCreate?: boolean;
}

export interface KeyStoreWriter {
  /** Where the keys are, for messages: a path or a Redis address, never a password. */
  readonly description: string;
  /** Read the keys, apply `change`, and store its keys and events as one atomic step. */
  update<T>(change: (current: KeysFile) => KeyChange<T>, options?: UpdateOptions): Promise<T>;
  close(): Promise<void>;
}

/** The lock is refreshed every STALE/2; a holder silent for STALE is presumed dead and its lock taken over. */
const LOCK_STALE_MS = 10_000;
/** Up to ~30 s of waiting for other writers (each holds the lock for milliseconds). */
const LOCK_RETRIES = { retries: 300, factor: 1.2, minTimeout: 10, maxTimeout: 100, randomize: true };

async function lockKeysFile(path: string): Promise<{ release: () => Promise<void>; check: () => void }> {
  let compromised: Error | undefined;
  try {
    const release = await lockfile.lock(path, {
      realpath: false,
      stale: LOCK_STALE_MS,
      retries: LOCK_RETRIES,
      onCompromised: (error) => {
        compromised = error;
      },
    });
    const check = () => {
      if (compromised !== undefined)
        throw new Error(`lost the lock on ${path} (${compromised.message}); nothing was changed`);
    };
    // A lock taken over as stale belongs to its new holder: releasing it would fail, or worse.
    return { release: async () => (compromised === undefined ? release() : undefined), check };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    throw new Error(
      `keys file ${path} stayed locked by another change (lock ${path}.lock); a lock whose holder ` +
        `died is taken over ${LOCK_STALE_MS / 1000} s after its last refresh`,
    );
  }
}

export function fileKeyStoreWriter(path: string): KeyStoreWriter {
  return {
    description: path,
    async update(change, options = {}) {
      const lock = await lockKeysFile(path);
      try {
        const current = await (options.mayCreate ? readKeysFileOrEmpty(path) : readKeysFile(path));
        const { file, events, result } = change(current);
        if (events.length > 0) {
          await writeKeysFile(path, file, async () => {
            lock.check();
            await appendAuditLines(auditLogPathOf(path), events);
          });
        }
        return result;
      } finally {
        await lock.release();
      }
    },
    close: async () => {},
  };
}
