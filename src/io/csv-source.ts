/**
 * Streaming CSV input (csv-parse): header row, UTF-8 with or without BOM, CRLF or LF, quoted fields with
 * embedded commas, quotes and newlines. Blank lines are skipped and not counted as rows. Rows whose field
 * count differs from the header's are passed on as they are: the job rejects them with a reason rather
 * than failing the whole file. So are records that cannot be read (a stray quote, a byte that is not
 * UTF-8: ./csv-records.ts), as unreadable rows with their line and byte offset.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import { type Info, parse } from 'csv-parse';
import { type CsvRecord, CsvRecordTracker, type Unreadable } from './csv-records.js';
import type { InputSource, SourceBatch } from './input-source.js';
import { Utf8Guard } from './utf8-guard.js';

export async function openCsvSource(path: string, batchRows: number): Promise<InputSource> {
  const fromStdin = path === '-';
  const name = fromStdin ? 'standard input' : path;
  const sizeBytes = fromStdin ? undefined : (await stat(path)).size;
  const input: Readable = fromStdin ? process.stdin : createReadStream(path, { highWaterMark: 1 << 16 });
  let bytesRead = 0;
  input.on('data', (chunk: Buffer) => {
    bytesRead += chunk.length;
  });
  const guard = new Utf8Guard();
  const tracker = new CsvRecordTracker(guard.invalid);
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: tracker.onSkip,
    info: true,
  });
  // pipeline() passes an error in any stage on to the parser, whose reader then sees it.
  pipeline(input, guard, parser, () => undefined);
  const parsed: AsyncIterator<{ record: string[]; info: Info }> = parser[Symbol.asyncIterator]();
  const first = await parsed.next().catch((error: unknown) => {
    throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const header = tracker.header(first, name);

  async function* records(): AsyncIterable<CsvRecord> {
    try {
      for (let next = await parsed.next(); !next.done; next = await parsed.next())
        yield* tracker.next(next.value.record, next.value.info);
    } catch (error) {
      throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    yield* tracker.end();
  }

  async function* batches(): AsyncIterable<SourceBatch> {
    let firstRow = 1;
    let batch = new RowBatch();
    for await (const record of records()) {
      batch.add(record);
      if (batch.rows.length === batchRows) {
        yield batch.sourceBatch(firstRow);
        firstRow += batchRows;
        batch = new RowBatch();
      }
    }
    if (batch.rows.length > 0) yield batch.sourceBatch(firstRow);
  }

  return {
    format: 'csv',
    header,
    kinds: header.map(() => 'text'),
    sizeBytes,
    bytesRead: () => bytesRead,
    batches,
    close: async () => {
      parser.destroy();
      if (!fromStdin) input.destroy();
    },
  };
}

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
