/**
 * Records of a CSV stream as csv-parse reads them, with the records it cannot read put back in their place
 * as unreadable ones: a quote csv-parse refuses (`skip_records_with_error`, reported through `on_skip`)
 * or a byte that is not UTF-8 (jobs/batch/io/utf8-guard.ts). Each keeps its place in the numbering, so every
 * record ends in the scored file or the rejects file, and says where it is in the file (line and byte).
 * Nothing is repaired: `relax_quotes` would guess where a field ends, so it stays off.
 */
import type { CsvError, Info } from 'csv-parse';
import { LineSpans } from './line-spans.js';
import type { PositionedRecord } from './positioned-parser.js';

export interface Unreadable {
  /** The reject's text: where, what, what to do. */
  readonly message: string;
  /** A stable category for the summary. */
  readonly reason: string;
}

export type CsvRecord = string[] | Unreadable;

/** One error csv-parse reported while skipping a record. */
interface Skip {
  /** Records read before it (the header included): csv-parse runs ahead of the reader. */
  readonly records: number;
  readonly code: string;
  readonly line: number;
  readonly column: number;
  readonly bytes: number;
}

const QUOTE_PROBLEMS: Record<string, { what: string; fix: string }> = {
  INVALID_OPENING_QUOTE: {
    what: 'has a quote inside an unquoted field',
    fix: 'quote the whole field and double each quote inside it',
  },
  CSV_INVALID_CLOSING_QUOTE: {
    what: 'has a quote inside a quoted field that is not doubled',
    fix: 'double the quotes inside a quoted field',
  },
  CSV_QUOTE_NOT_CLOSED: {
    what: 'has a quoted field that is never closed',
    fix: 'close the quote; every line up to the end of the file was read as that one field',
  },
};

const UTF8_REASON = '(record) is not valid UTF-8';
const MULTILINE_REASON = '(record) spans several lines';

/**
 * What to do about bytes that are not UTF-8: nearly always a Windows-1252 file (Excel's "CSV" on Windows,
 * most loan-system exports), which `--encoding windows-1252` reads as it is.
 */
const NOT_UTF8_FIX =
  'the file is probably Windows-1252 (Excel on Windows, most exports): read it with --encoding windows-1252 (or --encoding latin1 for ISO-8859-1), or save it as UTF-8';

/** Where a stream of records starts in its file: the lines and (UTF-8) bytes before it. */
export interface RecordOrigin {
  readonly lines: number;
  readonly bytes: number;
}

export class CsvRecordTracker {
  private readonly skips: Skip[] = [];
  /** Last line and end byte of the last record read (the header's at first), and blank lines before it. */
  private lastLine = 0;
  private lastEnd = 0;
  private lastEmpty = 0;
  /** Records that span several lines. */
  readonly spans = new LineSpans();

  constructor(
    /** Stream offsets of invalid UTF-8 bytes not yet claimed, in order (Utf8Guard.invalid). */
    private readonly invalidBytes: number[],
    /** Added to the stream's lines and bytes in messages (a shard's stream starts inside its file). */
    private readonly origin: RecordOrigin = { lines: 0, bytes: 0 },
    /** `--single-line-records`: a record spanning several lines is rejected. */
    private readonly singleLine = false,
  ) {}

  /** For csv-parse's `on_skip`. */
  readonly onSkip = (error: CsvError | undefined): undefined => {
    if (error === undefined) return undefined;
    const { code, records, lines, column, bytes } = error as CsvError & Info & { column: number };
    this.skips.push({ records, code, line: lines, column: typeof column === 'number' ? column : 0, bytes });
    return undefined;
  };

  /** The header, which must be readable: a job error otherwise (none at all included). */
  header(first: IteratorResult<PositionedRecord>, source: string): string[] {
    const headerEnd = first.done ? Number.POSITIVE_INFINITY : first.value.bytes;
    const bad = this.claimBytesBefore(headerEnd);
    if (bad !== undefined)
      throw new Error(`${source}: the header is not valid UTF-8 (byte ${bad}); ${NOT_UTF8_FIX}`);
    const skip = this.skips[0];
    if (skip !== undefined && (first.done || skip.records < first.value.records))
      throw new Error(`${source}: the header ${this.describeSkip(skip)}`);
    if (first.done) throw new Error(`${source} is empty: a CSV input needs a header row`);
    this.lastLine = first.value.lines;
    this.lastEnd = first.value.bytes;
    this.lastEmpty = first.value.empty;
    return first.value.record;
  }

  /**
   * Undefined when this record stands as it is; otherwise the records that take its place: those skipped
   * before it, then this one (unreadable when it holds a byte that is not UTF-8).
   */
  next(positioned: PositionedRecord): CsvRecord[] | undefined {
    const start = this.lastEnd;
    // Lines since the last record, less the blank ones skipped: the record's own.
    const lines = positioned.lines - this.lastLine - (positioned.empty - this.lastEmpty);
    if (
      this.skips.length === 0 &&
      lines <= 1 &&
      (this.invalidBytes[0] ?? Number.POSITIVE_INFINITY) >= positioned.bytes
    ) {
      this.lastLine = positioned.lines;
      this.lastEnd = positioned.bytes;
      this.lastEmpty = positioned.empty;
      return undefined;
    }
    const replacing: CsvRecord[] = [...this.skipped(positioned.records)];
    // Skipped records before it took their lines.
    const own = positioned.lines - this.lastLine - (positioned.empty - this.lastEmpty);
    const bad = this.claimBytesBefore(positioned.bytes);
    this.lastLine = positioned.lines;
    this.lastEnd = positioned.bytes;
    this.lastEmpty = positioned.empty;
    const last = this.origin.lines + positioned.lines;
    const multiline = own > 1 && this.singleLine ? this.spansLines(last - own + 1, last) : undefined;
    this.spans.add(last - own + 1, last, multiline !== undefined || bad !== undefined);
    replacing.push(
      bad !== undefined ? this.notUtf8(bad, start, positioned.lines) : (multiline ?? positioned.record),
    );
    return replacing;
  }

  private spansLines(first: number, last: number): Unreadable {
    return {
      message: `lines ${first}-${last}: the record spans ${last - first + 1} lines (a quoted field holds a line break, or a stray quote opened one); --single-line-records rejects such records`,
      reason: MULTILINE_REASON,
    };
  }

  /** Records skipped after the last one read. */
  *end(): Iterable<CsvRecord> {
    yield* this.skipped(Number.POSITIVE_INFINITY);
    const bad = this.claimBytesBefore(Number.POSITIVE_INFINITY);
    if (bad !== undefined) yield this.notUtf8(bad, this.lastEnd, this.lastLine + 1);
  }

  /**
   * One unreadable record per line csv-parse reported errors on, of those before the `records`-th record
   * read (its first error says what is wrong).
   */
  private *skipped(records: number): Iterable<Unreadable> {
    const { skips } = this;
    let count = 0;
    while (count < skips.length && skips[count]!.records < records) count++;
    const due = skips.splice(0, count);
    for (let i = 0; i < due.length; i++) {
      const skip = due[i]!;
      if (i + 1 < due.length && due[i + 1]!.line === skip.line) continue;
      yield this.unreadableQuote(due.find((s) => s.line === skip.line)!, skip.line);
    }
    // Invalid bytes inside the skipped records are theirs: the record is already refused.
    const last = due.at(-1);
    if (last !== undefined)
      while (this.invalidBytes.length > 0 && this.invalidBytes[0]! <= last.bytes) this.invalidBytes.shift();
  }

  private unreadableQuote(skip: Skip, line: number): Unreadable {
    const firstLine = this.origin.lines + this.lastLine + 1;
    this.lastLine = line;
    const lastLine = this.origin.lines + line;
    this.spans.add(firstLine, lastLine, true);
    const lines = firstLine < lastLine ? `lines ${firstLine}-${lastLine}` : `line ${lastLine}`;
    const problem = QUOTE_PROBLEMS[skip.code];
    return {
      message: `${lines}: ${this.describeSkip(skip)}${problem === undefined ? '' : `; ${problem.fix}`}`,
      reason: `(record) ${problem?.what ?? `cannot be read (${skip.code})`}`,
    };
  }

  private describeSkip(skip: Skip): string {
    // csv-parse's byte count at an error is where the field's record or preceding comma is.
    const fieldStart = skip.column === 0 ? skip.bytes : skip.bytes + 1;
    const what = QUOTE_PROBLEMS[skip.code]?.what ?? `cannot be read (${skip.code})`;
    return `field ${skip.column + 1} (from byte ${this.origin.bytes + fieldStart}) ${what}`;
  }

  private notUtf8(byte: number, recordStart: number, line: number): Unreadable {
    return {
      message: `line ${this.origin.lines + line}, byte ${this.origin.bytes + byte} (record from byte ${this.origin.bytes + recordStart}): not valid UTF-8; ${NOT_UTF8_FIX}`,
      reason: UTF8_REASON,
    };
  }

  /** The first invalid byte before `end`, dropping every other one before it (same record). */
  private claimBytesBefore(end: number): number | undefined {
    const { invalidBytes } = this;
    const first = invalidBytes[0];
    if (first === undefined || first >= end) return undefined;
    while (invalidBytes.length > 0 && invalidBytes[0]! < end) invalidBytes.shift();
    return first;
  }
}
