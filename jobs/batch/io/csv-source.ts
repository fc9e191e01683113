/**
 * Streaming CSV input (csv-parse): header row, UTF-8 with or without BOM (or Windows-1252/Latin-1 on
 * request: ./text-encoding.ts), gzip-compressed or not, comma, semicolon or tab delimited
 * (./csv-dialect.ts), CRLF or LF or both mixed, quoted fields with embedded delimiters, quotes and newlines. Blank lines are skipped and not counted as rows. Rows whose field
 * count differs from the header's are passed on as they are: the job rejects them with a reason rather
 * than failing the whole file. So are records that cannot be read (a stray quote, a byte that is not
 * UTF-8: ./csv-records.ts), as unreadable rows with their line and byte offset.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline, Readable, type Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { detectDelimiter, detectRecordDelimiters, peekHead } from './csv-dialect.js';
import { type CsvRecord, CsvRecordTracker, type RecordOrigin, type Unreadable } from './csv-records.js';
import { findCsvPart } from './csv-split.js';
import type { InputPart, InputSource, SourceBatch } from './input-source.js';
import { PositionedParser, type PositionedRecord } from './positioned-parser.js';
import { type InputEncoding, toUtf8 } from './text-encoding.js';
import { Utf8Guard } from './utf8-guard.js';

export interface CsvOptions {
  /** The field delimiter; read off the header line when not given (./csv-dialect.ts). */
  readonly delimiter?: string | undefined;
  readonly encoding: InputEncoding;
  /** The bytes are gzip-compressed (a `.csv.gz` file), decompressed as they are read. */
  readonly gzip: boolean;
  /** `--single-line-records`: a record spanning several lines is rejected (./line-spans.ts). */
  readonly singleLineRecords?: boolean | undefined;
}

export const PLAIN_CSV: CsvOptions = { encoding: 'utf-8', gzip: false };

export async function openCsvSource(
  path: string,
  batchRows: number,
  options: CsvOptions = PLAIN_CSV,
  part?: InputPart,
): Promise<InputSource> {
  if (part !== undefined) return openCsvPart(path, batchRows, options, part);
  const fromStdin = path === '-';
  // The size first: a stream opened on a missing file would emit its own error with no listener yet.
  const sizeBytes = fromStdin ? undefined : (await stat(path)).size;
  const input: Readable = fromStdin ? process.stdin : createReadStream(path, { highWaterMark: 1 << 16 });
  const records = await openRecords(input, fromStdin ? 'standard input' : path, options);
  return csvInput(records, batchRows, sizeBytes, WHOLE_FILE, () => {
    if (!fromStdin) input.destroy();
  });
}

/** Where a stream of records sits in its file, and how many it must hold (undefined: whatever it has). */
interface Placement {
  readonly firstRow: number;
  readonly rows: number | undefined;
  readonly origin: RecordOrigin;
  /** The shard, as error messages name it. */
  readonly shard?: string;
}

const WHOLE_FILE: Placement = { firstRow: 1, rows: undefined, origin: { lines: 0, bytes: 0 } };

/**
 * Shard `part` of a CSV file (./csv-split.ts): the header read off the file's start, then only the
 * shard's own bytes parsed. A compressed file or standard input cannot be entered in the middle.
 */
async function openCsvPart(
  path: string,
  batchRows: number,
  options: CsvOptions,
  part: InputPart,
): Promise<InputSource> {
  const shard = `shard ${part.index + 1}/${part.count}`;
  if (path === '-' || options.gzip)
    throw new Error(
      `${path === '-' ? 'standard input' : path}: --shard needs an uncompressed CSV file, which a shard can read from the middle; ${path === '-' ? 'save the input to a file' : 'decompress it first'}, or score it whole (without --shard)`,
    );
  const head = await openRecords(createReadStream(path, { highWaterMark: 1 << 16 }), path, options);
  await head.close();
  const { size } = await stat(path);
  const found = await findCsvPart(path, size, part, {
    delimiter: head.delimiter,
    encoding: options.encoding,
  });
  // An empty range still needs a stream: createReadStream reads to the file's end without `end`.
  const input: Readable =
    found.start === found.end
      ? Readable.from([])
      : createReadStream(path, { highWaterMark: 1 << 16, start: found.start, end: found.end - 1 });
  const origin = { lines: found.linesBefore, bytes: found.decodedBefore };
  const records =
    part.index === 0
      ? await openRecords(input, path, { ...options, delimiter: head.delimiter })
      : await openRecords(
          input,
          path,
          { ...options, delimiter: head.delimiter },
          { origin, header: head.header, recordDelimiters: head.recordDelimiters },
        );
  return csvInput(
    records,
    batchRows,
    found.end - found.start,
    { firstRow: found.firstRow, rows: found.rows, origin, shard },
    () => input.destroy(),
  );
}

/** A CSV stream's parsed records, with its header and delimiter. */
interface CsvRecords {
  readonly header: string[];
  readonly delimiter: string;
  readonly recordDelimiters: string[];
  readonly parsed: AsyncIterator<PositionedRecord>;
  readonly tracker: CsvRecordTracker;
  readonly name: string;
  bytesRead(): number;
  close(): Promise<void>;
}

/**
 * Parses `input`: its header from its first record, or (a shard after the first, `headless`) the file's
 * header given, the stream starting on a record, placed at `origin` in the file.
 */
async function openRecords(
  input: Readable,
  name: string,
  options: CsvOptions,
  headless?: {
    readonly origin: RecordOrigin;
    readonly header: string[];
    readonly recordDelimiters: string[];
  },
): Promise<CsvRecords> {
  // Counted before decompression, to compare with the file's size.
  let bytesRead = 0;
  input.on('data', (chunk: Buffer) => {
    bytesRead += chunk.length;
  });
  // Invalid UTF-8 is looked for only in UTF-8 input: converted text is valid by construction.
  const guard = options.encoding === 'utf-8' ? new Utf8Guard() : undefined;
  const decoded = decodedStream(input, options, guard);
  const head = (await peekHead(decoded).catch(failIn(name))).toString('utf8');
  const delimiter = options.delimiter ?? detectDelimiter(head);
  // A shard's stream starts mid-file: its record delimiters are those of the file's header.
  const recordDelimiters = headless?.recordDelimiters ?? detectRecordDelimiters(head);
  const tracker = new CsvRecordTracker(
    guard?.invalid ?? [],
    headless?.origin,
    options.singleLineRecords === true,
  );
  const parser = new PositionedParser({
    // A shard's stream starts on a record, where a BOM would be data.
    bom: headless === undefined,
    delimiter,
    record_delimiter: recordDelimiters,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: tracker.onSkip,
  });
  // pipeline() passes an error in any stage on to the parser, whose reader then sees it.
  pipeline(decoded, parser, () => undefined);
  const parsed: AsyncIterator<PositionedRecord> = parser[Symbol.asyncIterator]();
  const header =
    headless === undefined ? tracker.header(await parsed.next().catch(failIn(name)), name) : headless.header;
  return {
    header,
    delimiter,
    recordDelimiters,
    parsed,
    tracker,
    name,
    bytesRead: () => bytesRead,
    close: async () => {
      parser.destroy();
      input.destroy();
    },
  };
}

function csvInput(
  records: CsvRecords,
  batchRows: number,
  sizeBytes: number | undefined,
  placement: Placement,
  closeInput: () => void,
): InputSource {
  const { parsed, tracker, name, header } = records;
  async function* batches(): AsyncIterable<SourceBatch> {
    const batch = new BatchBuilder(batchRows, tracker, placement.firstRow);
    try {
      for (let next = await parsed.next(); !next.done; next = await parsed.next()) {
        const full = batch.add(next.value);
        if (full !== undefined) yield* full;
      }
    } catch (error) {
      failIn(name)(error);
    }
    const last = batch.finish();
    const read = batch.nextRow - placement.firstRow;
    if (placement.rows !== undefined && read !== placement.rows)
      throw new Error(
        `${name}, ${placement.shard}: the scan for record starts found ${placement.rows} records in this shard's bytes, the parser ${read}, so its rows cannot be numbered as in the whole file (a quote read otherwise than csv-parse reads it); score the file whole (without --shard)`,
      );
    yield* last;
  }

  return {
    format: 'csv',
    header,
    delimiter: records.delimiter,
    kinds: header.map(() => 'text'),
    sizeBytes,
    bytesRead: records.bytesRead,
    lineSpans: () => tracker.spans.report(),
    batches,
    close: async () => {
      await records.close();
      closeInput();
    },
  };
}

/** Cuts the records, with those the tracker puts in their place, into batches of `batchRows` from row 1. */
class BatchBuilder {
  private batch = new RowBatch();

  constructor(
    private readonly batchRows: number,
    private readonly tracker: CsvRecordTracker,
    private firstRow: number,
  ) {}

  /** The row number of the next row: after `finish`, the one after the last. */
  get nextRow(): number {
    return this.firstRow;
  }

  /** The batches this record completes, if it completes any. */
  add(positioned: PositionedRecord): SourceBatch[] | undefined {
    const replacing = this.tracker.next(positioned);
    if (replacing === undefined) return this.addOne(positioned.record) ? [this.cut()] : undefined;
    return this.addAll(replacing);
  }

  /** The batches left at the end of the file. */
  finish(): SourceBatch[] {
    const full = this.addAll([...this.tracker.end()]) ?? [];
    return this.batch.rows.length > 0 ? [...full, this.cut()] : full;
  }

  private addAll(records: readonly CsvRecord[]): SourceBatch[] | undefined {
    const full = records.flatMap((record) => (this.addOne(record) ? [this.cut()] : []));
    return full.length > 0 ? full : undefined;
  }

  /** Whether the batch is full with this record. */
  private addOne(record: CsvRecord): boolean {
    this.batch.add(record);
    return this.batch.rows.length === this.batchRows;
  }

  private cut(): SourceBatch {
    const full = this.batch.sourceBatch(this.firstRow);
    this.firstRow += this.batch.rows.length;
    this.batch = new RowBatch();
    return full;
  }
}

/**
 * The input's bytes as UTF-8 text bytes: decompressed, converted, checked, as `options` say. There is
 * always a stage after `input`, so peeking at the header never re-emits the input's own counted chunks.
 */
function decodedStream(input: Readable, options: CsvOptions, guard: Utf8Guard | undefined): Readable {
  const stages: Transform[] = [
    ...(options.gzip ? [createGunzip()] : []),
    ...(guard === undefined ? [toUtf8(options.encoding as 'latin1' | 'windows-1252')] : [guard]),
  ];
  // An error in any stage destroys the last, and so reaches the parser piped to it.
  return pipeline([input, ...stages], () => undefined) as unknown as Readable;
}

/** Rethrows an error of reading `name`, saying which input it was. */
const failIn =
  (name: string) =>
  (error: unknown): never => {
    throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  };

/** A batch's rows, an unreadable record standing as an empty row with its reason beside. */
class RowBatch {
  readonly rows: string[][] = [];
  private unreadable: Map<number, Unreadable> | undefined;

  add(record: CsvRecord): void {
    if (Array.isArray(record)) {
      this.rows.push(record);
      return;
    }
    this.unreadable ??= new Map();
    this.unreadable.set(this.rows.length, record);
    this.rows.push([]);
  }

  sourceBatch(firstRow: number): SourceBatch {
    const { rows, unreadable } = this;
    const cells =
      unreadable === undefined
        ? { kind: 'rows' as const, rows }
        : { kind: 'rows' as const, rows, unreadable };
    return { firstRow, length: rows.length, cells };
  }
}
