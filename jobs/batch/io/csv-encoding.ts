/**
 * The batch job's one CSV encoder: every CSV file it writes (scored rows, rejects, the column dictionary)
 * goes through `CsvBytes` or `csvRecord`, with one quoting rule and one way of writing numbers, in one
 * dialect. The default dialect is csv-stringify's defaults (comma, LF, quote a field only when it holds the
 * separator, a double quote, CR or LF, embedded quotes doubled, no byte order mark);
 * test/jobs/batch/io/csv-encoding.test.ts checks byte equality with csv-stringify on generated fields.
 * Written by hand because the batch job encodes ~90 fields per row and csv-stringify's per-field option
 * handling dominated the run time; rows are built straight into a growing byte buffer (integers as ASCII
 * digits, text copied as UTF-8), so they create no intermediate strings (per-field strings and
 * concatenations were most of the job's garbage-collection time).
 */
import { writeUtf8 } from './utf8-bytes.js';

/** How a CSV file is written. `--excel` picks the one Excel opens as it is in the user's locale. */
export interface CsvDialect {
  readonly separator: ',' | ';';
  /** The file starts with the UTF-8 byte order mark, by which Excel knows the text is UTF-8. */
  readonly bom: boolean;
  /**
   * The mark before a number's fraction. A comma only with the `;` separator: locales whose Excel
   * separates fields with `;` write and read numbers with a decimal comma (`80,5`), and read `80.5` as
   * text or a date.
   */
  readonly decimalMark: '.' | ',';
}

export const DEFAULT_CSV_DIALECT: CsvDialect = { separator: ',', bom: false, decimalMark: '.' };

/**
 * `--excel`: the byte order mark, and the input's own convention: `;` with decimal commas when the input
 * CSV was separated by `;` (the file then came from such a locale), else `,` with decimal points.
 */
export function excelDialect(inputDelimiter: string | undefined): CsvDialect {
  return inputDelimiter === ';'
    ? { separator: ';', bom: true, decimalMark: ',' }
    : { separator: ',', bom: true, decimalMark: '.' };
}

/** csv-parse's options that read a file of this dialect back (its numbers with `readDecimal`). */
export const csvReadOptions = (dialect: CsvDialect) => ({ delimiter: dialect.separator, bom: dialect.bom });

/** A number as this dialect writes it, read back. */
export const readDecimal = (text: string, dialect: CsvDialect): number =>
  Number(dialect.decimalMark === ',' ? text.replace(',', '.') : text);

const BYTE_ORDER_MARK = '\uFEFF';
const QUOTE = /"/g;
const NEEDS_QUOTES = { ',': /[",\r\n]/, ';': /[";\r\n]/ } as const;
const NEWLINE = 0x0a;
const MINUS = 0x2d;
const ZERO = 0x30;

/** A field's text, quoted when this dialect's rule requires it. */
export function csvField(value: string, dialect: CsvDialect = DEFAULT_CSV_DIALECT): string {
  return NEEDS_QUOTES[dialect.separator].test(value) ? `"${value.replace(QUOTE, '""')}"` : value;
}

/** One record, LF-terminated. */
export function csvRecord(fields: readonly string[], dialect: CsvDialect = DEFAULT_CSV_DIALECT): string {
  let line = '';
  for (let i = 0; i < fields.length; i++) {
    if (i > 0) line += dialect.separator;
    line += csvField(fields[i] ?? '', dialect);
  }
  return `${line}\n`;
}

/** A file's first record: its header, after the byte order mark when the dialect has one. */
export const csvHeader = (fields: readonly string[], dialect: CsvDialect = DEFAULT_CSV_DIALECT): string =>
  (dialect.bom ? BYTE_ORDER_MARK : '') + csvRecord(fields, dialect);

/**
 * ⌊v / 10⌋ of a whole v ≥ 0. Amounts fit 32 bits, where `| 0` lets the compiler divide by multiplying;
 * the batch job writes 76 amounts per row, so this is most of its encoding time.
 */
const tenth = (v: number) => (v <= 0x7fffffff ? (v / 10) | 0 : Math.floor(v / 10));

/** Records of one dialect, built as bytes. */
export class CsvBytes {
  private bytes: Uint8Array;
  private length = 0;
  private readonly separatorByte: number;
  private readonly decimalComma: boolean;

  constructor(
    private readonly dialect: CsvDialect = DEFAULT_CSV_DIALECT,
    initialBytes = 1 << 16,
  ) {
    this.bytes = new Uint8Array(initialBytes);
    this.separatorByte = dialect.separator.charCodeAt(0);
    this.decimalComma = dialect.decimalMark === ',';
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** The field separator, before every field but a record's first. */
  separator(): void {
    this.reserve(1);
    this.bytes[this.length++] = this.separatorByte;
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

  /** A number with a fraction, formatted with a decimal point (`80.5`), in this dialect's decimal mark. */
  decimal(text: string): void {
    this.plain(this.decimalComma ? text.replace('.', ',') : text);
  }

  /** Text known to need no quoting in any dialect: no separator, quote or line break (e.g. a state code). */
  plain(text: string): void {
    this.reserve(text.length * 3);
    this.length = writeUtf8(this.bytes, this.length, text);
  }

  /** Any text, quoted when this dialect's rule requires it. */
  field(text: string): void {
    this.plain(csvField(text, this.dialect));
  }

  /** The bytes written, as an exactly sized copy that can be handed to another thread. */
  take(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}
