import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { AsyncByteQueue, RecordBatchFileWriter } from '../vendor/apache-arrow.js';
import type { SampleRow } from './columns.js';
import { type SampleOptions, sampleBatches } from './generate.js';
import { Population } from './population.js';
import { arrowBatches } from './write-arrow.js';
import { csvChunks } from './write-csv.js';

export type SampleFormat = 'csv' | 'arrow';

export interface WriteSampleOptions extends SampleOptions {
  out: string;
  format: SampleFormat;
}

const writeCsv = (batches: Iterable<SampleRow[]>, out: string) =>
  pipeline(Readable.from(csvChunks(batches), { objectMode: false }), createWriteStream(out));

/**
 * Hands the Arrow writer's bytes straight to the file stream. apache-arrow otherwise queues them in memory
 * without limit (its Node duplex acknowledges every batch at once; memory grew ~100 MB per million rows),
 * so the file stream's buffer becomes the only queue and its backpressure pauses generation.
 */
class FileSink extends AsyncByteQueue {
  constructor(private readonly file: WriteStream) {
    super();
  }

  override write(value: Parameters<AsyncByteQueue['write']>[0]): void {
    if (!ArrayBuffer.isView(value)) throw new Error('arrow writer produced a non-binary chunk');
    if (value.byteLength > 0)
      this.file.write(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  }
}

async function writeArrow(batches: Iterable<SampleRow[]>, out: string): Promise<void> {
  const file = createWriteStream(out);
  const writer = new RecordBatchFileWriter();
  writer.reset(new FileSink(file));
  for (const batch of arrowBatches(batches)) {
    writer.write(batch);
    if (file.writableNeedDrain) await once(file, 'drain');
  }
  writer.finish();
  file.end();
  await finished(file);
}

/** Streams a sample file to disk with flat memory; the generator runs only as fast as the file is written. */
export async function writeSample(options: WriteSampleOptions, population = new Population()): Promise<void> {
  const batches = sampleBatches(population, options);
  await (options.format === 'csv' ? writeCsv(batches, options.out) : writeArrow(batches, options.out));
}
