import * as crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateApiKey, generateKeyId } from '../../src/keys/api-key.js';
import { indexKeys, KeyIndex } from '../../src/keys/key-store.js';
import type { KeysFile, StoredKey } from '../../src/keys/keys-file.js';

// Spies that still do the real work: the tests count how often the digest and the comparison run.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, hash: vi.fn(actual.hash), timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const NOW = Date.parse('2026-11-22T08:00:00Z');

function storedKey(key: string, overrides: Partial<StoredKey> = {}): StoredKey {
  return {
    id: generateKeyId(),
    name: 'test',
    sha256: crypto.createHash('sha256').update(key).digest('hex'),
    scopes: ['budgets'],
    rateLimit: null,
    created: '2026-11-01T00:00:00Z',
    expires: null,
    revoked: null,
    ...overrides,
  };
}

const indexOf = (...keys: StoredKey[]): KeyIndex =>
  new KeyIndex(indexKeys({ version: 1, keys } satisfies KeysFile));

afterEach(() => vi.mocked(crypto.hash).mockClear());

describe('KeyIndex find', () => {
  it('when the same key is presented again, answers from the remembered verdict without hashing it again', () => {
    const key = generateApiKey();
    const stored = storedKey(key);
    const index = indexOf(stored);
    expect(index.find(key, NOW)?.id).toBe(stored.id);
    expect(index.find(key, NOW)?.id).toBe(stored.id);
    expect(index.find(key, NOW)?.id).toBe(stored.id);
    expect(crypto.hash).toHaveBeenCalledTimes(1);
  });

  it('when a remembered key is presented, still decides with a constant-time comparison of every byte', () => {
    const key = generateApiKey();
    const index = indexOf(storedKey(key));
    index.find(key, NOW);
    const compare = vi.mocked(crypto.timingSafeEqual);
    compare.mockClear();
    expect(index.find(key, NOW)).toBeDefined();
    expect(compare).toHaveBeenCalledTimes(1);
    const [remembered, presented] = compare.mock.calls[0]!;
    expect(Buffer.from(remembered as Uint8Array).toString('latin1')).toBe(key);
    expect(Buffer.from(presented as Uint8Array).toString('latin1')).toBe(key);
  });

  it('when an unknown well-formed key is presented repeatedly, rejects it each time and remembers nothing', () => {
    const index = indexOf(storedKey(generateApiKey()));
    const unknown = generateApiKey();
    expect(index.find(unknown, NOW)).toBeUndefined();
    expect(index.find(unknown, NOW)).toBeUndefined();
    // Not remembered: every attempt is hashed again, so guessed keys cannot grow the memo.
    expect(crypto.hash).toHaveBeenCalledTimes(2);
  });

  it('when a remembered key expires, rejects it from then on', () => {
    const key = generateApiKey();
    const index = indexOf(storedKey(key, { expires: new Date(NOW + 60_000).toISOString() }));
    expect(index.find(key, NOW)).toBeDefined();
    expect(index.find(key, NOW + 60_000)).toBeUndefined();
  });

  it('when the file is reloaded with the key revoked, the new index rejects a key the old one remembered', () => {
    const key = generateApiKey();
    const stored = storedKey(key);
    const before = indexOf(stored);
    expect(before.find(key, NOW)).toBeDefined();
    const after = indexOf({ ...stored, revoked: new Date(NOW).toISOString() });
    expect(after.find(key, NOW)).toBeUndefined();
  });
});
