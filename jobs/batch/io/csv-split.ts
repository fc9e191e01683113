/**
 * Where one shard of a CSV file starts and ends (`--shard I/N`), so that it reads only its own bytes.
 *
 * Shard k (0-based) of n owns the byte range [k·size/n, (k+1)·size/n). It reads from the first record
 * that starts at or after its range start (shard 0: the first after the header) up to the first record
 * that starts at or after its range end, so a record crossing the end is the shard's own, and every record
 * belongs to exactly one shard: the split-reader rule of Hadoop's text input.
 *
 * A newline inside a quoted field is not a record start, so a byte offset alone cannot say where records
 * start. The file is scanned from its first byte up to the shard's end with csv-parse's own quote rules
 * (a quote opens a field only at its start, closes it only before a delimiter, a record delimiter or the
 * end, and is otherwise data; `""` inside quotes is one quote), without building fields. The same scan
 * counts the records and lines before the shard's start (its first row number, and the line numbers and
 * byte offsets its reject reasons name) and the records of the shard itself, which the shard checks
 * against what it parsed: a disagreement (e.g. a quote csv-parse reads otherwise) stops the shard with
 * exit 1 rather than numbering rows wrongly. The scan costs one read of the bytes before the shard's end
 * (200 MB, 4.6 million rows, in 5 s on one core of a shared 2-core machine, Node 20, where scoring
 * them takes about 40 s); only the shard's own bytes are parsed and scored.
 */
import { createReadStream } from 'node:fs';
import type { InputPart } from './input-source.js';
import type { InputEncoding } from './text-encoding.js';

/** What a shard of a CSV file reads, and where it is in the whole file. */
export interface CsvPart {
  /** First byte of the shard's first record (the header's first byte for shard 0). */
  readonly start: number;
  /** The byte after its last record: the next shard's start, or the file's size. */
  readonly end: number;
  /** Row number of its first record (1-based, the header not counted, blank lines skipped). */
  readonly firstRow: number;
  /** Records from `start` to `end` (the header not counted). */
  readonly rows: number;
  /** Lines before `start`, as csv-parse counts them (every CR and LF, a CRLF record end once). */
  readonly linesBefore: number;
  /** Bytes before `start` once converted to UTF-8 (reject reasons count converted bytes). */
  readonly decodedBefore: number;
}

export interface CsvSplitDialect {
  readonly delimiter: string;
  readonly encoding: InputEncoding;
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const BOM = [0xef, 0xbb, 0xbf];

enum State {
  RecordStart,
  FieldStart,
  Unquoted,
  Quoted,
}

/** UTF-8 length of each byte's character in `encoding` (all 1 for UTF-8, whose bytes pass unchanged). */
function decodedLengths(encoding: InputEncoding): Uint8Array {
  if (encoding === 'utf-8') return new Uint8Array(256).fill(1);
  const decoder = encoding === 'latin1' ? null : new TextDecoder('windows-1252');
  return Uint8Array.from({ length: 256 }, (_, byte) => {
    const text = decoder === null ? String.fromCharCode(byte) : decoder.decode(Uint8Array.of(byte));
    return Buffer.byteLength(text, 'utf8');
  });
}

/**
 * The record delimiters the reader gives csv-parse (./csv-dialect.ts detectRecordDelimiters), told by the
 * first line break outside quotes (the header's): a lone CR, or CRLF and LF both.
 */
type RecordDelimiters = 'cr' | 'crlf-or-lf';

function recordDelimitersOf(bytes: Uint8Array, at: number): RecordDelimiters | undefined {
  if (bytes[at] === CR) return bytes[at + 1] === LF ? 'crlf-or-lf' : 'cr';
  return bytes[at] === LF ? 'crlf-or-lf' : undefined;
}

/**
 * csv-parse's record and line boundaries over a stream of chunks, with its quote rules, and the rows the
 * reader makes of them (jobs/batch/io/csv-records.ts: a record csv-parse refuses is one reject per line it
 * reported an error on). Chunks are scanned up to 2 bytes short of their end (a closing quote is decided
 * by the CRLF after it); the tail is carried over to the next chunk.
 */
class CsvScanner {
  private state = State.RecordStart;
  private recordDelimiters: RecordDelimiters | undefined;
  private carry: Uint8Array = new Uint8Array(0);
  /** Raw offset of `carry`'s first byte. */
  private offset = 0;
  private bomChecked = false;
  /** The line of the current record's last quote error (0: none yet). */
  private errorLine = 0;
  lines = 0;
  decoded = 0;
  /** Rows started (the header included). */
  rows = 0;

  constructor(
    private readonly delimiter: number,
    private readonly lengths: Uint8Array,
    private readonly skipBom: boolean,
  ) {}

  /**
   * Scans `chunk` (the end of the input when `final`), calling `onRecordStart` with the raw offset of
   * each record start; returns true as soon as `onRecordStart` does.
   */
  scan(chunk: Uint8Array, final: boolean, onRecordStart: (at: number) => boolean): boolean {
    const bytes = this.carry.length === 0 ? chunk : Buffer.concat([this.carry, chunk]);
    let pos = this.skipHead(bytes, final);
    if (pos < 0) return false;
    const limit = final ? bytes.length : bytes.length - 2;
    while (pos < limit) {
      if (this.state === State.RecordStart && this.isRecordDelimiterAt(bytes, pos) === 0) {
        this.rows++;
        this.errorLine = 0;
        if (onRecordStart(this.offset + pos)) {
          this.keep(bytes, pos);
          return true;
        }
      }
      const byte = bytes[pos]!;
      if (byte === CR || byte === LF) this.lines++;
      this.decoded += this.lengths[byte]!;
      pos =
        this.state === State.Quoted
          ? this.inQuotes(bytes, pos + 1, byte)
          : this.outside(bytes, pos + 1, byte);
    }
    this.keep(bytes, pos);
    return false;
  }

  /** Where scanning starts in the first bytes (after a UTF-8 BOM); -1 to wait for more of them. */
  private skipHead(bytes: Uint8Array, final: boolean): number {
    if (this.bomChecked) return 0;
    if (bytes.length < 3 && !final) {
      this.keep(bytes, 0);
      return -1;
    }
    this.bomChecked = true;
    if (!this.skipBom || !BOM.every((b, i) => bytes[i] === b)) return 0;
    this.decoded += 3;
    return 3;
  }

  /** After `byte` inside quotes, `pos` the next byte's: where to go on. */
  private inQuotes(bytes: Uint8Array, pos: number, byte: number): number {
    if (byte !== QUOTE) return pos;
    const next = bytes[pos];
    if (next === QUOTE) {
      this.decoded += 1;
      return pos + 1;
    }
    // csv-parse's test for a closing quote: nothing (or a NUL byte) after it, a delimiter or a record end.
    if (!next || next === this.delimiter || this.isRecordDelimiterAt(bytes, pos) > 0)
      this.state = State.Unquoted;
    else this.quoteError();
    return pos;
  }

  /** After `byte` outside quotes, `pos` the next byte's: where to go on. */
  private outside(bytes: Uint8Array, pos: number, byte: number): number {
    const recordEnd = this.isRecordDelimiterAt(bytes, pos - 1);
    if (recordEnd > 0) {
      this.state = State.RecordStart;
      if (recordEnd === 1) return pos;
      // A CRLF's LF is never visited by csv-parse, so never counted as a line.
      this.decoded += 1;
      return pos + 1;
    }
    if (byte === this.delimiter) this.state = State.FieldStart;
    else if (byte !== QUOTE) this.state = State.Unquoted;
    else if (this.state === State.Unquoted) this.quoteError();
    else this.state = State.Quoted;
    return pos;
  }

  /** A quote csv-parse refuses: the record's rows grow by one for each further line with one. */
  private quoteError(): void {
    const line = this.lines + 1;
    if (this.errorLine !== 0 && line !== this.errorLine) this.rows++;
    this.errorLine = line;
  }

  private keep(bytes: Uint8Array, pos: number): void {
    this.carry = bytes.subarray(pos);
    this.offset += pos;
  }

  /** Length of the record delimiter at `at` (0: none), discovering it on its first occurrence. */
  private isRecordDelimiterAt(bytes: Uint8Array, at: number): number {
    this.recordDelimiters ??= recordDelimitersOf(bytes, at);
    if (this.recordDelimiters === 'cr') return bytes[at] === CR ? 1 : 0;
    if (bytes[at] === LF) return 1;
    return bytes[at] === CR && bytes[at + 1] === LF ? 2 : 0;
  }
}

/**
 * Scans `path` up to the end of `part` and says where that shard's records are. Fails for a delimiter that
 * is not one ASCII character (the scan compares bytes).
 */
export async function findCsvPart(
  path: string,
  size: number,
  part: InputPart,
  dialect: CsvSplitDialect,
): Promise<CsvPart> {
  const delimiter = dialect.delimiter.charCodeAt(0);
  if (dialect.delimiter.length !== 1 || delimiter > 0x7f || delimiter === QUOTE)
    throw new Error(
      `--shard needs a one-character ASCII delimiter to find record starts; "${dialect.delimiter}" is not: score the file whole (without --shard)`,
    );
  const scanner = new CsvScanner(delimiter, decodedLengths(dialect.encoding), dialect.encoding === 'utf-8');
  const from = Math.floor((part.index * size) / part.count);
  const to = Math.floor(((part.index + 1) * size) / part.count);
  // Positions in records counted with the header (record 1), so that rows are records less one.
  let start: { at: number; record: number; lines: number; decoded: number } | undefined;
  let end: { at: number; record: number } | undefined;
  const onRecordStart = (at: number): boolean => {
    const record = scanner.rows;
    const owned = record === 1 ? part.index === 0 : at >= from;
    // Read before the record's own first byte is counted: the lines and bytes before it.
    if (start === undefined && owned) start = { at, record, lines: scanner.lines, decoded: scanner.decoded };
    if (start !== undefined && record > 1 && at >= to) end = { at, record };
    return end !== undefined;
  };
  let stopped = false;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    stopped = scanner.scan(chunk as Buffer, false, onRecordStart);
    if (stopped) break;
  }
  if (!stopped) scanner.scan(new Uint8Array(0), true, onRecordStart);
  const atEnd = { at: size, record: scanner.rows + 1, lines: scanner.lines, decoded: scanner.decoded };
  const first = start ?? atEnd;
  const last = end ?? atEnd;
  // Shard 0 starts on the header, which is no row.
  const firstRecord = part.index === 0 ? 2 : first.record;
  return {
    start: part.index === 0 ? 0 : first.at,
    end: last.at,
    firstRow: firstRecord - 1,
    rows: Math.max(0, last.record - firstRecord),
    linesBefore: part.index === 0 ? 0 : first.lines,
    decodedBefore: part.index === 0 ? 0 : first.decoded,
  };
}
