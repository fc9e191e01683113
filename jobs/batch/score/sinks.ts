/**
 * Where scored rows go. Both formats write through OutputFile (temporary name until complete). CSV output
 * is the text the scorers already encoded; Arrow output (./arrow-sink.ts, loaded only for it) is assembled
 * column by column from typed arrays.
 */
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { csvHeader } from '../io/csv-encoding.js';
import type { SourceBatch } from '../io/input-source.js';
import { OutputFile } from '../io/output-file.js';
import type { EncodedBatch } from './encode.js';
import { type OutputLayout, scoredHeader } from './layout.js';

/** A batch as read, with the rows of it that were sent to scoring (null: all of them, i.e. no shard). */
export interface SelectedBatch {
  readonly firstRow: number;
  readonly length: number;
  /**
   * The batch's cells, kept for its round trip to a scorer only when the sink writes input columns itself
   * (Arrow output). CSV output gets them back encoded, and holding a batch's parsed records that long had
   * V8 promote them to the old generation, the main share of the job's peak RSS.
   */
  readonly source: SourceBatch | null;
  readonly selection: Int32Array | null;
}

export interface ScoredSink {
  /** Null when the rows go to a stream (`--scored -`), which has nothing to sync, publish or discard. */
  readonly file: OutputFile | null;
  /** Whether `write` needs the batch's input cells (`SelectedBatch.source`). */
  readonly needsInput: boolean;
  write(encoded: EncodedBatch, batch: SelectedBatch): Promise<void>;
  /** Writes what the format needs after the last row (Arrow footer); the file is then ready to commit. */
  end(): Promise<void>;
}

export class CsvScoredSink implements ScoredSink {
  readonly needsInput = false;

  private constructor(readonly file: OutputFile) {}

  static async create(path: string, layout: OutputLayout): Promise<CsvScoredSink> {
    const file = await OutputFile.create(path);
    await file.write(csvHeader(scoredHeader(layout), layout.csv));
    return new CsvScoredSink(file);
  }

  static async resume(path: string, committedBytes: number): Promise<CsvScoredSink> {
    return new CsvScoredSink(await OutputFile.resume(path, committedBytes));
  }

  async write(encoded: EncodedBatch): Promise<void> {
    if (encoded.csv.byteLength > 0) await this.file.write(encoded.csv);
  }

  async end(): Promise<void> {}
}

/** CSV output compressed with gzip as it is written (`--compress gzip`): the same bytes, decompressed. */
export class GzipCsvScoredSink implements ScoredSink {
  readonly needsInput = false;
  private readonly gzip = createGzip();
  private readonly pump: Promise<void>;

  private constructor(readonly file: OutputFile) {
    this.pump = (async () => {
      for await (const chunk of this.gzip) await file.write(chunk as Buffer);
    })();
    // Surfaced by end(); without a handler here a write error would be an unhandled rejection first.
    this.pump.catch(() => undefined);
  }

  static async create(path: string, layout: OutputLayout): Promise<GzipCsvScoredSink> {
    const sink = new GzipCsvScoredSink(await OutputFile.create(path));
    await sink.put(Buffer.from(csvHeader(scoredHeader(layout), layout.csv)));
    return sink;
  }

  async write(encoded: EncodedBatch): Promise<void> {
    if (encoded.csv.byteLength > 0) await this.put(encoded.csv);
  }

  private async put(bytes: Uint8Array): Promise<void> {
    if (!this.gzip.write(bytes)) await once(this.gzip, 'drain');
  }

  async end(): Promise<void> {
    this.gzip.end();
    await this.pump;
  }
}
