/**
 * The API key format: `outlay_<body>_<checksum>`. The body is 128 random bits in base62; the checksum is
 * the CRC32 of the body in base62, so a mistyped key is recognised offline and rejected without a lookup.
 * Only the SHA-256 of a key is ever stored.
 */
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

const PREFIX = 'outlay_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_BYTES = 16;
/** 62^22 > 2^128, so 22 digits hold every 128-bit body. */
const BODY_LENGTH = 22;
/** 62^6 > 2^32, so 6 digits hold every CRC32. */
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${PREFIX}([0-9A-Za-z]{${BODY_LENGTH}})_([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`);

function toBase62(value: bigint, length: number): string {
  let digits = '';
  let rest = value;
  for (let i = 0; i < length; i++) {
    digits = BASE62[Number(rest % 62n)] + digits;
    rest /= 62n;
  }
  return digits;
}

const checksumOf = (body: string) => toBase62(BigInt(crc32(body)), CHECKSUM_LENGTH);

/** A new random key, to be shown to its owner once. */
export function generateApiKey(): string {
  const body = toBase62(BigInt(`0x${randomBytes(RANDOM_BYTES).toString('hex')}`), BODY_LENGTH);
  return `${PREFIX}${body}_${checksumOf(body)}`;
}

/** True when the key has the Outlay shape and its checksum matches (says nothing about whether it exists). */
export function isWellFormedApiKey(key: string): boolean {
  const match = KEY_PATTERN.exec(key);
  return match !== null && checksumOf(match[1]!) === match[2];
}

/** SHA-256 of the key; the only form in which a key is stored or compared. */
export const digestApiKey = (key: string): Buffer => createHash('sha256').update(key).digest();

/** A short random identifier: safe to log and to show, unlike the key. */
export const generateKeyId = (): string => `key_${randomBytes(6).toString('hex')}`;
