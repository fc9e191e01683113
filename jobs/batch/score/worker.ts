/**
 * Worker thread entry (compiled to dist/jobs/batch/score/worker.js): loads its own engine, then scores each batch
 * it is sent and posts the encoded result back, handing over the typed arrays instead of copying them.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import type { EncodedBatch } from './encode.js';
import { type EngineSpec, loadEngineFrom } from './engine-spec.js';
import type { OutputLayout } from './layout.js';
import { LocalScoring } from './local-scorer.js';
import type { WorkBatch } from './work.js';

/** The first message of a worker: its engine is loaded. */
export interface WorkerReady {
  readonly ready: true;
  readonly modelVersion: string;
  readonly priceYear: number;
  /** The heap limit V8 applies to this thread, so that the pool's resource limits can be seen in effect. */
  readonly heapLimitMb: number;
}

export interface WorkerSetup {
  readonly engine: EngineSpec;
  readonly layout: OutputLayout;
}

const port = parentPort;
if (port === null) throw new Error('jobs/batch/score/worker.js must run as a worker thread');
const setup = workerData as WorkerSetup;
const engine = await loadEngineFrom(setup.engine);
const scoring = new LocalScoring(engine, setup.layout);
port.postMessage({
  ready: true,
  modelVersion: engine.modelVersion,
  priceYear: engine.priceYear,
  heapLimitMb: getHeapStatistics().heap_size_limit / 2 ** 20,
} satisfies WorkerReady);

port.on('message', (batch: WorkBatch) => {
  const encoded = scoring.scoreBatch(batch);
  port.postMessage(encoded, transferables(encoded));
});

function transferables(encoded: EncodedBatch): ArrayBuffer[] {
  const { columns } = encoded;
  const strings =
    columns === null
      ? []
      : [columns.geoLevel, columns.state, columns.cbsa, columns.reasonCodes, columns.expenseFlags];
  const views = [
    encoded.scoredIndex,
    encoded.csv,
    encoded.rejectsCsv,
    ...Object.values(encoded.stats),
    ...Object.values(columns ?? {}),
    ...strings.flatMap((column) => [column.nullBitmap, column.valueOffsets, column.data]),
  ];
  const buffers = new Set<ArrayBuffer>();
  for (const view of views) if (ArrayBuffer.isView(view)) buffers.add(view.buffer as ArrayBuffer);
  return [...buffers];
}
