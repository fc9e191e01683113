/**
 * Opening the key store by where the keys are: a keys file, or a Redis store shared by several instances.
 * Kept apart from both back ends so that neither imports the other (redis-keys.ts builds on the file
 * store's index and the writer's interface), and so that Redis' client is loaded only when used.
 */
import { type KeyStore, type KeyStoreOptions, openFileKeyStore } from './key-store.js';
import { fileKeyStoreWriter, type KeyStoreWriter } from './key-store-writer.js';

/** The server's reader: load the keys (failing if they cannot be read) and follow their changes. */
export async function openKeyStore(options: KeyStoreOptions): Promise<KeyStore> {
  if (options.redisUrl === undefined) return openFileKeyStore(options);
  const { openRedisKeyStore } = await import('./redis-keys.js');
  return openRedisKeyStore(options);
}

export type KeyStoreLocation = { readonly path: string } | { readonly redisUrl: string };

/** `outlay keys`' writer for a keys file or a Redis store. */
export async function openKeyStoreWriter(location: KeyStoreLocation): Promise<KeyStoreWriter> {
  if ('path' in location) return fileKeyStoreWriter(location.path);
  const { openRedisKeyStoreWriter } = await import('./redis-keys.js');
  return openRedisKeyStoreWriter(location.redisUrl);
}
