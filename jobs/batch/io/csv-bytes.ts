/**
 * Builds CSV output straight into a growing byte buffer: integers as ASCII digits and text via encodeInto,
 * so writing ~90 fields per row creates no intermediate strings (per-field strings and concatenations were
 * most of the batch job's garbage-collection time). Quoting follows csv-text.ts (csv-stringify's rules).
 */
import { csvField } from './csv-text.js';
import { writeUtf8 } from './utf8-bytes.js';

const COMMA = 0x2c;
const NEWLINE = 0x0a;
const MINUS = 0x2d;
const ZERO = 0x30;

/**
 * ⌊v / 10⌋ of a whole v ≥ 0. Amounts fit 32 bits, where `| 0` lets the compiler divide by multiplying;
 * the batch job writes 76 amounts per row, so this is most of its encoding time.
 */
const tenth = (v: number) => (v <= 0x7fffffff ? (v / 10) | 0 : Math.floor(v / 10));

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
    const { bytes } = this;
    let at = this.length;
    let v = value;
    if (v < 0) {
      bytes[at++] = MINUS;
      v = -v;
    }
    let digits = 1;
    for (let rest = v; rest >= 10; rest = tenth(rest)) digits++;
    at += digits;
    this.length = at;
    do {
      const rest = tenth(v);
      // The digit first: ZERO + v rounds once v is within 48 of 2^53.
      bytes[--at] = ZERO + (v - rest * 10);
      v = rest;
    } while (v > 0);
  }

  /** Text known to need no quoting (numbers as the API writes them, codes). */
  plain(text: string): void {
    this.reserve(text.length * 3);
    this.length = writeUtf8(this.bytes, this.length, text);
  }

  /** Bytes encoded beforehand: a separator written many times is encoded once, not per write. */
  raw(encoded: Uint8Array): void {
    this.reserve(encoded.length);
    const { bytes } = this;
    let at = this.length;
    // A loop, not bytes.set: the separators are a few bytes, shorter than set's own cost.
    for (let i = 0; i < encoded.length; i++) bytes[at++] = encoded[i]!;
    this.length = at;
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
