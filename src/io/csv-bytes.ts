/**
 * Builds CSV output straight into a growing byte buffer: integers as ASCII digits and text via encodeInto,
 * so writing ~90 fields per row creates no intermediate strings (per-field strings and concatenations were
 * most of the batch job's garbage-collection time). Quoting follows csv-text.ts (csv-stringify's rules).
 */
import { csvField } from './csv-text.js';

const COMMA = 0x2c;
const NEWLINE = 0x0a;
const MINUS = 0x2d;
const ZERO = 0x30;
const encoder = new TextEncoder();

export class CsvBytes {
  private bytes: Uint8Array;
  private length = 0;

  constructor(initialBytes = 1 << 16) {
    this.bytes = new Uint8Array(initialBytes);
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  comma(): void {
    this.reserve(1);
    this.bytes[this.length++] = COMMA;
  }

  endRecord(): void {
    this.reserve(1);
    this.bytes[this.length++] = NEWLINE;
  }

  /** A whole number (safe integer), e.g. an amount. */
  integer(value: number): void {
    this.reserve(17);
    let v = value;
    if (v < 0) {
      this.bytes[this.length++] = MINUS;
      v = -v;
    }
    let digits = 1;
    for (let rest = v; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    for (let i = this.length + digits - 1; i >= this.length; i--) {
      this.bytes[i] = ZERO + (v % 10);
      v = Math.floor(v / 10);
    }
    this.length += digits;
  }

  /** Text known to need no quoting (numbers as the API writes them, codes). */
  plain(text: string): void {
    const count = text.length;
    this.reserve(count * 3);
    const { bytes, length } = this;
    // ASCII (nearly every field) is copied unit by unit: encodeInto needs a new subarray view per call,
    // which cost more than the copy for fields this short.
    for (let i = 0; i < count; i++) {
      const unit = text.charCodeAt(i);
      if (unit > 0x7f) {
        this.length += encoder.encodeInto(text, bytes.subarray(length)).written;
        return;
      }
      bytes[length + i] = unit;
    }
    this.length += count;
  }

  /** Any text, quoted when CSV requires it. */
  field(text: string): void {
    this.plain(csvField(text));
  }

  /** The bytes written, as an exactly sized copy that can be handed to another thread. */
  take(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }

  get byteLength(): number {
    return this.length;
  }
}
