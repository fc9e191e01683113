import { describe, expect, it } from 'vitest';
import { digestApiKey, generateApiKey, generateKeyId, isWellFormedApiKey } from '../../src/keys/api-key.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('generateApiKey', () => {
  it('when called, returns outlay_<22 base62>_<6 base62> that passes its own checksum', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^outlay_[0-9A-Za-z]{22}_[0-9A-Za-z]{6}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('when called many times, never repeats a key (128 random bits each)', () => {
    const keys = new Set(Array.from({ length: 10_000 }, generateApiKey));
    expect(keys.size).toBe(10_000);
  });
});

describe('isWellFormedApiKey', () => {
  it('when any single character of the body is mistyped, rejects the key offline', () => {
    const key = generateApiKey();
    const bodyStart = 'outlay_'.length;
    for (let i = bodyStart; i < bodyStart + 22; i++) {
      const replacement = BASE62[(BASE62.indexOf(key[i]!) + 1) % 62]!;
      expect(isWellFormedApiKey(key.slice(0, i) + replacement + key.slice(i + 1))).toBe(false);
    }
  });

  it('when two adjacent body characters are swapped, rejects the key', () => {
    const key = generateApiKey();
    const i = 'outlay_'.length + 3;
    const swapped = key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2);
    if (swapped !== key) expect(isWellFormedApiKey(swapped)).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['wrong prefix', generateApiKey().replace('outlay_', 'outlai_')],
    ['truncated', generateApiKey().slice(0, -1)],
    ['extra character', `${generateApiKey()}x`],
    ['non-base62 character', generateApiKey().replace(/^outlay_./, 'outlay_-')],
  ])('when the key is %s, rejects it', (_case, key) => {
    expect(isWellFormedApiKey(key)).toBe(false);
  });
});

describe('digestApiKey and generateKeyId', () => {
  it('when hashing a key, returns its 32-byte SHA-256; ids never contain the key', () => {
    const key = generateApiKey();
    expect(digestApiKey(key)).toHaveLength(32);
    expect(digestApiKey(key).equals(digestApiKey(key))).toBe(true);
    expect(generateKeyId()).toMatch(/^key_[0-9a-f]{12}$/);
  });
});
