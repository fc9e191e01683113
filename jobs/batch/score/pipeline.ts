/**
 * Scoring in parallel, writing in input order. Memory is bounded by the batches in flight, never by the
 * file: the reader is only asked for the next batch once a slot is free, and results are written as soon as
 * their turn comes.
 */
import type { InputSource, SourceBatch } from '../io/input-source.js';
import type { EncodedBatch } from './encode.js';
import type { BatchScorer } from './scorer.js';
import { workOf } from './selection.js';
import type { SelectedBatch } from './sinks.js';
import type { BatchWriter } from './writer.js';

interface InFlight {
  readonly result: Promise<EncodedBatch>;
  readonly batch: SelectedBatch;
}

/**
 * Scores every batch of `source` (the rows `select` chooses) and writes the results through `writer`. Once
 * `stop` is aborted no further batch is read or scored; the batches already in flight are written.
 */
export async function scoreInOrder(
  source: InputSource,
  scorer: BatchScorer,
  select: (batch: SourceBatch) => Int32Array | null,
  writer: BatchWriter,
  stop?: AbortSignal,
): Promise<void> {
  const inFlight: InFlight[] = [];
  const writeOldest = async () => {
    const oldest = inFlight.shift()!;
    await writer.write(await oldest.result, oldest.batch);
  };
  let seq = 0;
  for await (const batch of source.batches()) {
    if (stop?.aborted === true) break;
    const selection = select(batch);
    if (selection !== null && selection.length === 0) {
      if (inFlight.length === 0) writer.skip(batch.firstRow + batch.length - 1);
      continue;
    }
    const result = scorer.score(workOf(seq++, batch, selection));
    // Awaited in order below; this handler only keeps an early failure from being reported as unhandled.
    result.catch(() => undefined);
    const { firstRow, length } = batch;
    inFlight.push({
      result,
      batch: { firstRow, length, source: writer.needsInput ? batch : null, selection },
    });
    if (inFlight.length >= scorer.parallelBatches) await writeOldest();
  }
  while (inFlight.length > 0) await writeOldest();
}
