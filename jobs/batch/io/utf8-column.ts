/**
 * The buffers of an Arrow Utf8 column (offsets, bytes, validity bits), built from strings where the rows
 * are scored. The result is plain typed arrays, so a worker hands it to the main thread by transfer, and
 * the Arrow sink wraps it without touching a cell: building these columns with `vectorFromArray` on the
 * main thread (a TextEncoder call per cell) was the largest share of Arrow output's main-thread time.
 */
import { writeUtf8 } from './utf8-bytes.js';

export interface Utf8Buffers {
  readonly length: number;
  readonly nullCount: number;
  /** Arrow validity bitmap (bit set = value present), least significant bit first. */
  readonly nullBitmap: Uint8Array;
  /** length + 1 byte offsets into `data`. */
  readonly valueOffsets: Int32Array;
  readonly data: Uint8Array;
}

export class Utf8ColumnBuilder {
  private readonly offsets: Int32Array;
  private readonly validity: Uint8Array;
  private bytes: Uint8Array;
  private count = 0;
  private nulls = 0;

  constructor(capacity: number) {
    this.offsets = new Int32Array(capacity + 1);
    this.validity = new Uint8Array(Math.ceil(capacity / 8));
    this.bytes = new Uint8Array(Math.max(64, capacity * 8));
  }

  add(text: string | null): void {
    const row = this.count++;
    const start = this.offsets[row]!;
    if (text === null) {
      this.nulls++;
      this.offsets[row + 1] = start;
      return;
    }
    this.validity[row >> 3]! |= 1 << (row & 7);
    const needed = start + text.length * 3;
    if (needed > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, needed));
      grown.set(this.bytes.subarray(0, start));
      this.bytes = grown;
    }
    this.offsets[row + 1] = writeUtf8(this.bytes, start, text);
  }

  /** Exactly sized copies of the rows added so far. */
  finish(): Utf8Buffers {
    const length = this.count;
    return {
      length,
      nullCount: this.nulls,
      nullBitmap: this.validity.slice(0, Math.ceil(length / 8)),
      valueOffsets: this.offsets.slice(0, length + 1),
      data: this.bytes.slice(0, this.offsets[length]!),
    };
  }
}
