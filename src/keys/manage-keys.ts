/** The operations behind `outlay keys create|list|revoke`, over the keys file. */
import { digestApiKey, generateApiKey, generateKeyId } from './api-key.js';
import { readKeysFile, readKeysFileOrEmpty, type Scope, type StoredKey, writeKeysFile } from './keys-file.js';

export interface NewKeyOptions {
  readonly scopes: readonly Scope[];
  readonly name?: string;
  readonly expires?: Date;
  readonly rateLimit?: number;
  readonly now?: Date;
}

/** Describes a key without its hash: what `keys list` shows. */
export type KeySummary = Omit<StoredKey, 'sha256'>;

/** Create a key, store its hash, and return the key itself: the only time it exists outside its owner. */
export async function createKey(
  path: string,
  options: NewKeyOptions,
): Promise<{ key: string; record: KeySummary }> {
  const file = await readKeysFileOrEmpty(path);
  const key = generateApiKey();
  const stored: StoredKey = {
    id: generateKeyId(),
    name: options.name ?? '',
    sha256: digestApiKey(key).toString('hex'),
    scopes: [...new Set(options.scopes)],
    rateLimit: options.rateLimit ?? null,
    created: (options.now ?? new Date()).toISOString(),
    expires: options.expires?.toISOString() ?? null,
    revoked: null,
  };
  await writeKeysFile(path, { ...file, keys: [...file.keys, stored] });
  return { key, record: summarise(stored) };
}

function summarise(key: StoredKey): KeySummary {
  const { sha256: _hash, ...summary } = key;
  return summary;
}

export async function listKeys(path: string): Promise<KeySummary[]> {
  return (await readKeysFile(path)).keys.map(summarise);
}

/** Mark a key revoked (kept in the file for the record). Revoking a revoked key keeps its first date. */
export async function revokeKey(path: string, id: string, now: Date = new Date()): Promise<KeySummary> {
  const file = await readKeysFile(path);
  const target = file.keys.find((key) => key.id === id);
  if (target === undefined) throw new Error(`no key with id ${id} in ${path}`);
  const revoked: StoredKey = { ...target, revoked: target.revoked ?? now.toISOString() };
  await writeKeysFile(path, { ...file, keys: file.keys.map((key) => (key === target ? revoked : key)) });
  return summarise(revoked);
}
