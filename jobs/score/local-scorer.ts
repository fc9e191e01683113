/** Scores a batch with an in-process engine: used by the worker threads, and on the main thread with --workers 0. */
import type { LocalEngine } from '../../src/engine/types.js';
import { BatchEncoder, type EncodedBatch } from './encode.js';
import type { OutputLayout } from './layout.js';
import type { BatchScorer } from './scorer.js';
import { prepareRow, type WorkBatch } from './work.js';

export function scoreBatchLocally(engine: LocalEngine, layout: OutputLayout, batch: WorkBatch): EncodedBatch {
  const encoder = new BatchEncoder(layout, batch.seq, batch.cells, batch.rowNumbers);
  for (let i = 0; i < batch.rowNumbers.length; i++) {
    const row = prepareRow(layout, batch.cells, i);
    if (!row.ok) {
      encoder.add(i, row);
      continue;
    }
    const result = engine.householdFigures(row.body);
    encoder.add(
      i,
      result.ok
        ? { ok: true, value: result.value, demographics: row.body.demographics }
        : { ok: false, errors: result.error.errors },
    );
  }
  return encoder.finish();
}

/** The engine on the main thread (`--workers 0`): no thread hand-off, for small files and debugging. */
export class InProcessScorer implements BatchScorer {
  readonly engineKind = 'local';
  readonly parallelBatches = 1;

  constructor(
    private readonly engine: LocalEngine,
    private readonly layout: OutputLayout,
  ) {}

  get modelVersion(): string {
    return this.engine.modelVersion;
  }

  async score(batch: WorkBatch): Promise<EncodedBatch> {
    return scoreBatchLocally(this.engine, this.layout, batch);
  }

  async close(): Promise<void> {}
}
