import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { RecordBatchFileWriter } from 'apache-arrow';
import { type SampleOptions, sampleBatches } from './generate.js';
import { Population } from './population.js';
import { arrowBatches } from './write-arrow.js';
import { csvChunks } from './write-csv.js';

export type SampleFormat = 'csv' | 'arrow';

export interface WriteSampleOptions extends SampleOptions {
  out: string;
  format: SampleFormat;
}

/** Streams a sample file to disk; the generator runs only as fast as the file is written. */
export async function writeSample(options: WriteSampleOptions, population = new Population()): Promise<void> {
  const batches = sampleBatches(population, options);
  const source =
    options.format === 'csv'
      ? Readable.from(csvChunks(batches), { objectMode: false })
      : Readable.from(arrowBatches(batches)).pipe(RecordBatchFileWriter.throughNode());
  await pipeline(source, createWriteStream(options.out));
}
