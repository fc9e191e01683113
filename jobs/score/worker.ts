/**
 * Worker thread entry (compiled to dist/jobs/score/worker.js): loads its own engine, then scores each batch
 * it is sent and posts the encoded result back, handing over the typed arrays instead of copying them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { EncodedBatch } from './encode.js';
import { type EngineSpec, loadEngineFrom } from './engine-spec.js';
import type { OutputLayout } from './layout.js';
import { scoreBatchLocally } from './local-scorer.js';
import type { WorkBatch } from './work.js';

export interface WorkerSetup {
  readonly engine: EngineSpec;
  readonly layout: OutputLayout;
}

const port = parentPort;
if (port === null) throw new Error('jobs/score/worker.js must run as a worker thread');
const setup = workerData as WorkerSetup;
const engine = await loadEngineFrom(setup.engine);
port.postMessage({ ready: true, modelVersion: engine.modelVersion });

port.on('message', (batch: WorkBatch) => {
  const encoded = scoreBatchLocally(engine, setup.layout, batch);
  port.postMessage(encoded, transferables(encoded));
});

function transferables(encoded: EncodedBatch): ArrayBuffer[] {
  const views = [
    encoded.scoredIndex,
    encoded.csv,
    encoded.rejectsCsv,
    ...Object.values(encoded.stats),
    ...Object.values(encoded.columns ?? {}),
  ];
  const buffers = new Set<ArrayBuffer>();
  for (const view of views) if (ArrayBuffer.isView(view)) buffers.add(view.buffer as ArrayBuffer);
  return [...buffers];
}
