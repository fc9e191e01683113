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
  for await (const batch of untilStopped(source.batches(), stop)) {
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

/**
 * The batches until `stop` is aborted, which ends the wait for the next one at once: a stop must not wait
 * for input that may never come (standard input from a writer that is itself waiting). The read left
 * pending ends when the job closes the source; its outcome is ignored.
 */
async function* untilStopped<T>(items: AsyncIterable<T>, stop: AbortSignal | undefined): AsyncGenerator<T> {
  const iterator = items[Symbol.asyncIterator]();
  const stopped = new Promise<undefined>((resolve) => {
    if (stop?.aborted === true) resolve(undefined);
    stop?.addEventListener('abort', () => resolve(undefined), { once: true });
  });
  for (;;) {
    if (stop?.aborted === true) return;
    const next = iterator.next();
    next.catch(() => undefined);
    const result = await Promise.race([next, stopped]);
    if (result === undefined || result.done === true) return;
    yield result.value;
  }
}
