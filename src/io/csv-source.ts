/**
 * Streaming CSV input (csv-parse): header row, UTF-8 with or without BOM, CRLF or LF, quoted fields with
 * embedded commas, quotes and newlines. Blank lines are skipped and not counted as rows. Rows whose field
 * count differs from the header's are passed on as they are: the job rejects them with a reason rather
 * than failing the whole file. Malformed quoting fails the job with csv-parse's line and reason.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import { parse } from 'csv-parse';
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
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true });
  // pipeline() passes an error in any stage on to the parser, whose reader then sees it.
  pipeline(input, new Utf8Guard(name), parser, () => undefined);
  const records: AsyncIterator<string[]> = parser[Symbol.asyncIterator]();
  const first = await records.next().catch((error: unknown) => {
    throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (first.done) throw new Error(`${name} is empty: a CSV input needs a header row`);
  const header = first.value;

  async function* batches(): AsyncIterable<SourceBatch> {
    let firstRow = 1;
    let rows: string[][] = [];
    try {
      for (let next = await records.next(); !next.done; next = await records.next()) {
        rows.push(next.value);
        if (rows.length === batchRows) {
          yield { firstRow, length: rows.length, cells: { kind: 'rows', rows } };
          firstRow += rows.length;
          rows = [];
        }
      }
    } catch (error) {
      throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (rows.length > 0) yield { firstRow, length: rows.length, cells: { kind: 'rows', rows } };
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
