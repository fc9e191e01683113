/**
 * Fails a byte stream that is not valid UTF-8, instead of letting the decoder turn bad bytes into U+FFFD
 * and passing mangled names or ZIP codes downstream (a Latin-1 or UTF-16 export is the usual cause).
 */
import { isUtf8 } from 'node:buffer';
import { Transform, type TransformCallback } from 'node:stream';

/** Length of an incomplete multi-byte sequence at the end of `bytes` (0–3), to check with the next chunk. */
function incompleteTail(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) !== 0x80) {
      const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
      return needed > back ? back : 0;
    }
  }
  return 0;
}

export class Utf8Guard extends Transform {
  private carry: Buffer = Buffer.alloc(0);
  private offset = 0;

  constructor(private readonly source: string) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const complete = bytes.length - incompleteTail(bytes);
    const head = bytes.subarray(0, complete);
    if (!isUtf8(head)) {
      callback(this.invalid());
      return;
    }
    this.carry = Buffer.from(bytes.subarray(complete));
    this.offset += complete;
    callback(null, head);
  }

  override _flush(callback: TransformCallback): void {
    callback(this.carry.length > 0 ? this.invalid() : null);
  }

  private invalid(): Error {
    return new Error(
      `${this.source} is not valid UTF-8 (after byte ${this.offset}); save it as UTF-8 (with or without BOM)`,
    );
  }
}
