/**
 * Finds the bytes of a stream that are not valid UTF-8, without stopping it: the CSV reader rejects the
 * record that holds one (jobs/batch/io/csv-source.ts) instead of letting the decoder turn it into U+FFFD and pass
 * a mangled name or ZIP code downstream (a Latin-1 or Windows-1252 export is the usual cause). Bytes pass
 * through unchanged; `isUtf8` clears a valid chunk at once, and only a chunk that fails it is walked byte
 * by byte to find where.
 */
import { isUtf8 } from 'node:buffer';
import { Transform, type TransformCallback } from 'node:stream';

/** Bytes a sequence starting with `lead` takes (1 for ASCII, a continuation byte or an invalid lead). */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  return lead >= 0xc0 ? 2 : 1;
}

/** Length of an incomplete multi-byte sequence at the end of `bytes` (0–3), to check with the next chunk. */
function incompleteTail(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) !== 0x80) return sequenceLength(byte) > back ? back : 0;
  }
  return 0;
}

/** Second-byte range of each lead byte (RFC 3629 table), and how many continuation bytes follow. */
function sequenceOf(lead: number): { length: number; low: number; high: number } | undefined {
  if (lead >= 0xc2 && lead <= 0xdf) return { length: 2, low: 0x80, high: 0xbf };
  if (lead === 0xe0) return { length: 3, low: 0xa0, high: 0xbf };
  if (lead === 0xed) return { length: 3, low: 0x80, high: 0x9f };
  if (lead >= 0xe1 && lead <= 0xef) return { length: 3, low: 0x80, high: 0xbf };
  if (lead === 0xf0) return { length: 4, low: 0x90, high: 0xbf };
  if (lead >= 0xf1 && lead <= 0xf3) return { length: 4, low: 0x80, high: 0xbf };
  if (lead === 0xf4) return { length: 4, low: 0x80, high: 0x8f };
  return undefined;
}

/** Length of the valid sequence starting at `i` (1 for ASCII), or 0 when the byte there starts none. */
function validSequenceAt(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!;
  if (lead < 0x80) return 1;
  const sequence = sequenceOf(lead);
  if (sequence === undefined || i + sequence.length > bytes.length) return 0;
  const second = bytes[i + 1]!;
  if (second < sequence.low || second > sequence.high) return 0;
  for (let k = 2; k < sequence.length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return 0;
  return sequence.length;
}

/** Offsets (within `bytes`) of the first byte of each invalid sequence. */
export function invalidUtf8Offsets(bytes: Uint8Array): number[] {
  const offsets: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    const length = validSequenceAt(bytes, i);
    if (length === 0) offsets.push(i++);
    else i += length;
  }
  return offsets;
}

export class Utf8Guard extends Transform {
  private carry: Buffer = Buffer.alloc(0);
  private offset = 0;
  /** Stream offsets of invalid bytes not yet claimed by the reader, in order. */
  readonly invalid: number[] = [];

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const complete = bytes.length - incompleteTail(bytes);
    const head = bytes.subarray(0, complete);
    this.check(head);
    this.carry = Buffer.from(bytes.subarray(complete));
    callback(null, head);
  }

  override _flush(callback: TransformCallback): void {
    this.check(this.carry);
    callback(null, this.carry);
  }

  private check(bytes: Buffer): void {
    if (!isUtf8(bytes)) for (const at of invalidUtf8Offsets(bytes)) this.invalid.push(this.offset + at);
    this.offset += bytes.length;
  }
}
