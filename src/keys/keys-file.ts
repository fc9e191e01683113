/**
 * The keys file: one JSON document listing every key by id with its SHA-256 hash, scopes, rate limit and
 * lifetime. It never holds a key. Written atomically (temporary file + fsync + rename + fsync of the
 * directory) with mode 0600. The same records, one per key, make up the Redis store (redis-keys.ts).
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { syncDirectory } from '../runtime/sync-directory.js';
import Type, { Compile, type Static } from '../vendor/typebox.js';

export const SCOPES = ['budgets', 'scores', 'models'] as const;
export type Scope = (typeof SCOPES)[number];

const IsoTimestamp = Type.String({ format: 'date-time' });

export const StoredKey = Type.Object(
  {
    id: Type.String({ pattern: '^key_[0-9a-f]{12}$' }),
    name: Type.String(),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    scopes: Type.Array(Type.Enum(SCOPES), { minItems: 1, uniqueItems: true }),
    /** Requests per minute for this key; null uses the server's default. */
    rateLimit: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
    created: IsoTimestamp,
    expires: Type.Union([IsoTimestamp, Type.Null()]),
    revoked: Type.Union([IsoTimestamp, Type.Null()]),
    /** When the `expired` audit event was written (see manage-keys.ts); absent until then. */
    expiryAudited: Type.Optional(IsoTimestamp),
  },
  { additionalProperties: false },
);

export const KeysFile = Type.Object(
  { version: Type.Literal(1), keys: Type.Array(StoredKey) },
  { additionalProperties: false },
);

export type StoredKey = Static<typeof StoredKey>;
export type KeysFile = Static<typeof KeysFile>;

const compiledKeysFile = Compile(KeysFile);

export const emptyKeysFile = (): KeysFile => ({ version: 1, keys: [] });

/** Check a parsed key list; the error names `source` and the first offending field. */
export function checkKeysFile(value: unknown, source: string): KeysFile {
  if (!compiledKeysFile.Check(value)) {
    const [first] = compiledKeysFile.Errors(value);
    throw new Error(
      `${source} is invalid at '${first?.instancePath ?? ''}': ${first?.message ?? 'unknown error'}`,
    );
  }
  return value as KeysFile;
}

/** Parse and check a keys file's text; the error names the first offending field. */
export function parseKeysFile(text: string, path: string): KeysFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`keys file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return checkKeysFile(parsed, `keys file ${path}`);
}

export async function readKeysFile(path: string): Promise<KeysFile> {
  return parseKeysFile(await readFile(path, 'utf8'), path);
}

/** Like readKeysFile, but a missing file is an empty one (for the first `keys create`). */
export async function readKeysFileOrEmpty(path: string): Promise<KeysFile> {
  try {
    return await readKeysFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyKeysFile();
    throw error;
  }
}

/**
 * Replace the file in one rename so a reloading server never sees a half-written file. `beforeReplace`
 * runs once the new contents are on disk and before they take effect (the audit log is written there, so
 * no change is ever in force without its audit line).
 */
export async function writeKeysFile(
  path: string,
  file: KeysFile,
  beforeReplace: () => Promise<void> = async () => {},
): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, flush: true });
    await beforeReplace();
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(dirname(path));
}
