/**
 * The API key format: `outlay_<body>_<checksum>`. The body is 22 uniformly random base62 digits (131 bits);
 * the checksum is the CRC32 of the body in base62, so a mistyped key is recognised offline and rejected
 * without a lookup. Only the SHA-256 of a key is ever stored.
 */
import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

const PREFIX = 'outlay_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 22 × log2(62) ≈ 131 bits of randomness, above the 128 required. */
const BODY_LENGTH = 22;
/** Bytes at or above 4 × 62 are dropped, so that every digit is equally likely. */
const UNBIASED_BYTE_LIMIT = 248;
/** 62^6 > 2^32, so 6 digits hold every CRC32. */
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${PREFIX}([0-9A-Za-z]{${BODY_LENGTH}})_([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`);

function randomBase62(length: number): string {
  let digits = '';
  while (digits.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < UNBIASED_BYTE_LIMIT && digits.length < length) digits += BASE62[byte % 62];
    }
  }
  return digits;
}

/** Checked on every request, so plain arithmetic: a CRC32 is exact in a double. */
function checksumOf(body: string): string {
  let rest = crc32(body);
  let digits = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    digits = BASE62[rest % 62] + digits;
    rest = Math.floor(rest / 62);
  }
  return digits;
}

/** A new random key, to be shown to its owner once. */
export function generateApiKey(): string {
  const body = randomBase62(BODY_LENGTH);
  return `${PREFIX}${body}_${checksumOf(body)}`;
}

/** True when the key has the Outlay shape and its checksum matches (says nothing about whether it exists). */
export function isWellFormedApiKey(key: string): boolean {
  const match = KEY_PATTERN.exec(key);
  return match !== null && checksumOf(match[1]!) === match[2];
}

/** SHA-256 of the key; the only form in which a key is stored or compared. */
export const digestApiKey = (key: string): Buffer => hash('sha256', key, 'buffer');

/** A short random identifier: safe to log and to show, unlike the key. */
export const generateKeyId = (): string => `key_${randomBytes(6).toString('hex')}`;
