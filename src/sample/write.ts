import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { RecordBatchFileWriter } from 'apache-arrow';
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
 * apache-arrow's Node duplex (RecordBatchFileWriter.throughNode) acknowledges every batch at once and
 * queues the bytes without limit (memory grew ~100 MB per million rows), so batches are fed by hand: one
 * turn of the event loop lets the pipe move a batch's bytes to the file, and a full file buffer pauses
 * generation until it drains.
 */
async function writeArrow(batches: Iterable<SampleRow[]>, out: string): Promise<void> {
  const writer = new RecordBatchFileWriter();
  const file = createWriteStream(out);
  const written = pipeline(writer.toNodeStream(), file);
  for (const batch of arrowBatches(batches)) {
    writer.write(batch);
    await nextTurn();
    if (file.writableNeedDrain) await once(file, 'drain');
  }
  writer.finish();
  await written;
}

/** Streams a sample file to disk with flat memory; the generator runs only as fast as the file is written. */
export async function writeSample(options: WriteSampleOptions, population = new Population()): Promise<void> {
  const batches = sampleBatches(population, options);
  await (options.format === 'csv' ? writeCsv(batches, options.out) : writeArrow(batches, options.out));
}
