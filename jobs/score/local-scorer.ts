/** Scores a batch with an in-process engine: used by the worker threads, and on the main thread with --workers 0. */
import type { LocalEngine } from '../../src/engine/types.js';
import type { CellGrid } from '../../src/io/input-source.js';
import { BatchRequests } from '../../src/io/row-request.js';
import { BatchEncoder, type EncodedBatch, type RowOutcome } from './encode.js';
import type { OutputLayout } from './layout.js';
import type { BatchScorer } from './scorer.js';
import { prepareRow, type WorkBatch } from './work.js';

/**
 * A scorer's engine with its batch requests, read and checked column by column. A row the fast path
 * cannot score (an unreadable cell, a body the contract refuses) is taken again the general way, with a
 * body of its own, so that its errors are exactly those `prepareRow` and the engine report.
 */
export class LocalScoring {
  private readonly requests: BatchRequests;

  constructor(
    readonly engine: LocalEngine,
    private readonly layout: OutputLayout,
  ) {
    this.requests = new BatchRequests(layout.plan);
  }

  scoreBatch(batch: WorkBatch): EncodedBatch {
    const { engine, layout, requests } = this;
    const { cells } = batch;
    const count = batch.rowNumbers.length;
    const encoder = new BatchEncoder(layout, batch.seq, cells, batch.rowNumbers);
    requests.load(cells, count, layout.header.length);
    for (let i = 0; i < count; i++) {
      const valid = requests.validated(i);
      if (valid !== undefined) encoder.addScored(i, engine.householdFiguresOf(valid), valid.demographics);
      else encoder.add(i, scoreRow(engine, layout, cells, i));
    }
    return encoder.finish();
  }
}

function scoreRow(engine: LocalEngine, layout: OutputLayout, cells: CellGrid, index: number): RowOutcome {
  const row = prepareRow(layout, cells, index);
  if (!row.ok) return row;
  const result = engine.householdFigures(row.body);
  return result.ok
    ? { ok: true, value: result.value, demographics: row.body.demographics }
    : { ok: false, errors: result.error.errors };
}

/** The engine on the main thread (`--workers 0`): no thread hand-off, for small files and debugging. */
export class InProcessScorer implements BatchScorer {
  readonly engineKind = 'local';
  readonly parallelBatches = 1;

  private readonly scoring: LocalScoring;

  constructor(engine: LocalEngine, layout: OutputLayout) {
    this.scoring = new LocalScoring(engine, layout);
  }

  get modelVersion(): string {
    return this.scoring.engine.modelVersion;
  }

  async score(batch: WorkBatch): Promise<EncodedBatch> {
    return this.scoring.scoreBatch(batch);
  }

  async close(): Promise<void> {}
}
