/**
 * Scores batches through a remote Outlay API: many rows per request when the server offers the evaluate
 * endpoint, else the three operations per row. The geography columns are resolved locally with the same
 * resolver the engine uses, so remote and local runs write identical files.
 */
import pLimit from 'p-limit';
import type { GeoResolver } from '../../../src/geo/types.js';
import type { RemoteClient, RemoteEngine, RemoteOutcome } from '../../../src/remote/client.js';
import type { RemoteExplanation } from '../../../src/remote/evaluate-answer.js';
import { BatchEncoder, type EncodedBatch, type RowOutcome } from './encode.js';
import type { ExplanationValues } from './explain.js';
import type { OutputLayout } from './layout.js';
import { remoteLending } from './lending.js';
import type { BatchScorer } from './scorer.js';
import { type PreparedRow, prepareRow, rowLoan, type WorkBatch } from './work.js';
import { REMOTE_ZIP3, zip3Of } from './zip3.js';

type RequestBody = Extract<PreparedRow, { ok: true }>['body'];

/** A row to send: its body and its loan's monthly payment (null without one). */
interface SentRow {
  readonly ok: true;
  readonly body: RequestBody;
  readonly payment: number | null;
}

/**
 * Batches in flight against the evaluate endpoint. With two, the job and its server took turns more than
 * they overlapped: on a loaded machine each then waited for a CPU at every turn.
 */
const BULK_BATCHES_IN_FLIGHT = 4;

export class RemoteScorer implements BatchScorer {
  readonly engineKind = 'remote';
  readonly parallelBatches: number;
  readonly modelVersion: string;
  readonly priceYear: number | undefined;
  /** Most rows per evaluate request; undefined when the server takes three requests per row. */
  private readonly maxHouseholds: number | undefined;

  /**
   * `concurrency` is both the rows of a batch sent at a time (three calls per row) and the evaluate
   * requests a batch is split into, so that the connection slots stay full either way. Row by row, not the
   * whole batch at once: thousands of queued rows (request bodies, answers, promises) outlived the young
   * generation, and scavenging them was most of the job's garbage collection time. A row's body is built
   * only when p-limit starts it.
   */
  constructor(
    private readonly client: RemoteClient,
    private readonly geo: GeoResolver,
    private readonly layout: OutputLayout,
    engine: RemoteEngine,
    batchRows: number,
    private readonly concurrency: number,
  ) {
    // Enough rows queued that the connection slots never idle while a batch is being written; in bulk,
    // enough batches that the server has requests queued while the job reads, checks and writes.
    this.parallelBatches =
      engine.maxHouseholds === undefined
        ? Math.max(2, Math.ceil((2 * concurrency) / batchRows))
        : BULK_BATCHES_IN_FLIGHT;
    this.modelVersion = engine.modelVersion;
    this.priceYear = engine.priceYear;
    this.maxHouseholds = engine.maxHouseholds;
  }

  score(batch: WorkBatch): Promise<EncodedBatch> {
    return this.maxHouseholds === undefined
      ? this.scoreRowByRow(batch)
      : this.scoreInBulk(batch, this.maxHouseholds);
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private async scoreRowByRow(batch: WorkBatch): Promise<EncodedBatch> {
    const encoder = new BatchEncoder(this.layout, batch.seq, batch.cells, batch.rowNumbers);
    // Rows finish out of order; each is encoded (in order) as soon as those before it are, so the answers
    // of a batch are not all kept until its end.
    const finished: (RowOutcome | undefined)[] = new Array(batch.rowNumbers.length);
    let encoded = 0;
    await pLimit(this.concurrency).map(batch.rowNumbers, async (_rowNumber, index) => {
      const row = this.prepared(batch, index);
      finished[index] = row.ok ? this.rowOutcome(row, await this.client.household(this.sentBody(row))) : row;
      for (let outcome = finished[encoded]; outcome !== undefined; outcome = finished[encoded]) {
        finished[encoded] = undefined;
        encoder.add(encoded++, outcome);
      }
    });
    return encoder.finish();
  }

  /** The batch's valid rows in `concurrency` evaluate requests (fewer rows each than the server's limit). */
  private async scoreInBulk(batch: WorkBatch, maxHouseholds: number): Promise<EncodedBatch> {
    const rows = Array.from(batch.rowNumbers, (_rowNumber, index) => this.prepared(batch, index));
    const sent = rows.flatMap((row, index) => (row.ok ? [index] : []));
    const perRequest = Math.min(maxHouseholds, Math.max(1, Math.ceil(sent.length / this.concurrency)));
    const answers: RemoteOutcome[] = new Array(rows.length);
    const requests: Promise<void>[] = [];
    for (let start = 0; start < sent.length; start += perRequest) {
      const indexes = sent.slice(start, start + perRequest);
      const bodies = indexes.map((index) => this.sentBody(rows[index] as SentRow));
      requests.push(
        this.client.households(bodies, this.layout.loan === null).then((outcomes) => {
          indexes.forEach((index, k) => {
            answers[index] = outcomes[k]!;
          });
        }),
      );
    }
    await Promise.all(requests);
    const encoder = new BatchEncoder(this.layout, batch.seq, batch.cells, batch.rowNumbers);
    rows.forEach((row, index) => {
      encoder.add(index, row.ok ? this.rowOutcome(row, answers[index]!) : row);
    });
    return encoder.finish();
  }

  /**
   * A row's outcome from the server's. The score texts passed the contract's schema (src/remote), whose
   * patterns admit exactly the texts `scoreTexts` writes, so their numbers format back to them.
   */
  private rowOutcome({ body, payment }: SentRow, outcome: RemoteOutcome): RowOutcome {
    if (!outcome.ok) return outcome;
    const { demographics } = body;
    const { budget, model, scoreValues, explanation } = outcome.value;
    return {
      lending: payment === null ? null : remoteLending(payment, explanation.lending),
      ok: true,
      value: {
        budget,
        model,
        scoreValues,
        geography: this.geo.resolve((demographics.zip as string).slice(0, 5)),
      },
      explanation: this.explanationOf(explanation),
      demographics,
    };
  }

  /** A row's body and loan, or why it is rejected (its cells, else its loan's). */
  private prepared(batch: WorkBatch, index: number): SentRow | Extract<RowOutcome, { ok: false }> {
    const row = prepareRow(this.layout, batch.cells, index);
    if (!row.ok) return row;
    if (zip3Of(row.body.demographics.zip) !== undefined) return { ok: false, errors: [REMOTE_ZIP3] };
    const loan = rowLoan(this.layout, batch.cells, index);
    return loan.ok ? { ok: true, body: row.body, payment: loan.payment } : loan;
  }

  /** The body sent for a row: with its loan, and the job's basis when it is not the default. */
  private sentBody({ body, payment }: SentRow): object {
    const { basis } = this.layout.scoring;
    const withLoan = payment === null ? body : { ...body, loan: { monthly_payment: payment } };
    return basis === 'stated' ? withLoan : { ...withLoan, options: { basis } };
  }

  /**
   * The explanation columns from the answer's `details` (checked against their schema by the client): an
   * answer explained on another basis or profile than the job asks for stops the job, since its numbers
   * would be another score's.
   */
  private explanationOf(details: RemoteExplanation): ExplanationValues {
    const { basis, profile } = this.layout.scoring;
    if (details.basis !== basis || details.profile !== profile) {
      throw new Error(
        `the remote server scored on basis ${details.basis} with profile ${details.profile}, the job asks for basis ${basis} with profile ${profile} (outlay serve --score-profile ${profile})`,
      );
    }
    return {
      outlay_index: details.index,
      savings_index: details.savings_index,
      outlay_percentile: details.percentile,
      reason_codes: details.reasons,
      expense_flags: details.flags,
    };
  }
}
