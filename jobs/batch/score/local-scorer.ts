/** Scores a batch with an in-process engine: used by the worker threads, and on the main thread with --workers 0. */
import { checkRequest, type ValidRequest } from '../../../src/contract/validate.js';
import type { ScoreReference } from '../../../src/engine/score-reference.js';
import type { LocalEngine } from '../../../src/engine/types.js';
import type { CellGrid } from '../io/input-source.js';
import { BatchRequests } from '../io/row-request.js';
import { BatchEncoder, type EncodedBatch, type RowOutcome } from './encode.js';
import { explainedFigures, referenceOf } from './explain.js';
import type { OutputLayout } from './layout.js';
import type { BatchScorer } from './scorer.js';
import { prepareRow, type RowLoan, rowLoan, type WorkBatch } from './work.js';
import { unknownPrefix, zip3Errors, zip3Of, zip3Request } from './zip3.js';

/**
 * A scorer's engine with its batch requests, read and checked column by column. A row the fast path
 * cannot score (an unreadable cell, a body the contract refuses) is taken again the general way, with a
 * body of its own, so that its errors are exactly those `prepareRow` and the engine report.
 */
export class LocalScoring {
  private readonly requests: BatchRequests;
  private readonly reference: ScoreReference;
  /** The fair-lending profile's score values of the row at hand (`explainedFigures`). */
  private readonly scoreValues = new Float64Array(3);

  constructor(
    readonly engine: LocalEngine,
    private readonly layout: OutputLayout,
  ) {
    this.requests = new BatchRequests(layout.plan);
    this.reference = referenceOf(engine);
  }

  scoreBatch(batch: WorkBatch): EncodedBatch {
    const { layout, requests } = this;
    const { cells } = batch;
    const count = batch.rowNumbers.length;
    const encoder = new BatchEncoder(layout, batch.seq, cells, batch.rowNumbers);
    requests.load(cells, count, layout.header.length);
    for (let i = 0; i < count; i++) {
      const valid = requests.validated(i);
      const loan = rowLoan(layout, cells, i);
      if (valid !== undefined && loan.ok && this.engine.refusalOf(valid) === undefined) {
        const { figures, explanation, lending } = this.explained(valid, loan.payment);
        encoder.addScored(i, figures, explanation, valid.demographics, lending);
      } else encoder.add(i, this.scoreRow(cells, i, loan));
    }
    return encoder.finish();
  }

  private explained(request: ValidRequest, payment: number | null) {
    const { engine, reference, layout, scoreValues } = this;
    return explainedFigures(engine, reference, request, layout.scoring, scoreValues, payment);
  }

  private scoreRow(cells: CellGrid, index: number, loan: RowLoan): RowOutcome {
    const row = prepareRow(this.layout, cells, index);
    if (!row.ok) return row;
    const loanErrors = loan.ok ? [] : loan.errors;
    const { zip } = row.body.demographics;
    const checked = checkRequest(row.body);
    const request = checked ?? zip3Request(row.body);
    if (request === undefined || (checked !== undefined && this.engine.refusalOf(checked) !== undefined)) {
      const result = this.engine.householdFigures(row.body);
      if (result.ok) throw new Error('a row the engine refused once was accepted once');
      return { ok: false, errors: [...zip3Errors(result.error.errors, zip), ...loanErrors] };
    }
    if (!loan.ok) return { ok: false, errors: loanErrors };
    const { figures, explanation, lending } = this.explained(request, loan.payment);
    const prefix = zip3Of(zip);
    if (prefix !== undefined && figures.geography.level === 'national')
      return { ok: false, errors: [unknownPrefix(prefix)] };
    return { ok: true, value: figures, explanation, demographics: row.body.demographics, lending };
  }
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

  get priceYear(): number {
    return this.scoring.engine.priceYear;
  }

  async score(batch: WorkBatch): Promise<EncodedBatch> {
    return this.scoring.scoreBatch(batch);
  }

  async close(): Promise<void> {}
}
