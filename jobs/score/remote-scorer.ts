/**
 * Scores batches through a remote Outlay API. The geography columns are resolved locally with the same
 * resolver the engine uses, so remote and local runs write identical files.
 */
import pLimit from 'p-limit';
import { PSA_KEY, SAVINGS_SCORE_KEY } from '../../src/contract/schemas.js';
import { scoreTexts } from '../../src/engine/score.js';
import { ScoreDetails } from '../../src/engine/score-details.js';
import type { GeoResolver } from '../../src/geo/types.js';
import type { RemoteClient } from '../../src/remote/client.js';
import { Compile } from '../../src/vendor/typebox.js';
import { BatchEncoder, type EncodedBatch, type RowOutcome } from './encode.js';
import { type ExplanationValues, flagText } from './explain.js';
import type { OutputLayout } from './layout.js';
import type { BatchScorer } from './scorer.js';
import { prepareRow, type WorkBatch } from './work.js';

export class RemoteScorer implements BatchScorer {
  readonly engineKind = 'remote';
  readonly parallelBatches: number;
  /**
   * Rows of one batch being sent at a time. Three calls each, so with `concurrency` rows the connection
   * slots stay full even while some rows wait to retry. Not the whole batch at once: thousands of queued
   * rows (request bodies, answers, promises) outlived the young generation, and scavenging them was most of
   * the job's garbage collection time. A row's body is built only when p-limit starts it.
   */
  private readonly rowsInFlight: number;

  constructor(
    private readonly client: RemoteClient,
    private readonly geo: GeoResolver,
    private readonly layout: OutputLayout,
    readonly modelVersion: string,
    batchRows: number,
    concurrency: number,
  ) {
    // Enough rows queued that the connection slots never idle while a batch is being written.
    this.parallelBatches = Math.max(2, Math.ceil((2 * concurrency) / batchRows));
    this.rowsInFlight = concurrency;
  }

  async score(batch: WorkBatch): Promise<EncodedBatch> {
    const encoder = new BatchEncoder(this.layout, batch.seq, batch.cells, batch.rowNumbers);
    // Rows finish out of order; each is encoded (in order) as soon as those before it are, so the answers
    // of a batch are not all kept until its end.
    const finished: (RowOutcome | undefined)[] = new Array(batch.rowNumbers.length);
    let encoded = 0;
    await pLimit(this.rowsInFlight).map(batch.rowNumbers, async (_rowNumber, index) => {
      finished[index] = await this.scoreRow(batch, index);
      for (let outcome = finished[encoded]; outcome !== undefined; outcome = finished[encoded]) {
        finished[encoded] = undefined;
        encoder.add(encoded++, outcome);
      }
    });
    return encoder.finish();
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private async scoreRow(batch: WorkBatch, index: number): Promise<RowOutcome> {
    const row = prepareRow(this.layout, batch.cells, index);
    if (!row.ok) return row;
    const { basis } = this.layout.scoring;
    const outcome = await this.client.household(
      basis === 'stated' ? row.body : { ...row.body, options: { basis } },
    );
    if (!outcome.ok) return outcome;
    const { demographics } = row.body;
    const { budget, model, score } = outcome.value;
    return {
      ok: true,
      value: {
        budget,
        model,
        scoreValues: scoreValuesOf(
          [score[PSA_KEY], score[this.layout.scoreKey], score[SAVINGS_SCORE_KEY]],
          batch,
          index,
        ),
        geography: this.geo.resolve((demographics.zip as string).slice(0, 5)),
      },
      explanation: this.explanationOf(score, batch, index),
      demographics,
    };
  }

  /**
   * The explanation columns from the answer's `details`: an answer without them, or explained on another
   * basis or profile than the job asks for, stops the job (its numbers would be another score's).
   */
  private explanationOf(score: object, batch: WorkBatch, index: number): ExplanationValues {
    const details = (score as { details?: unknown }).details;
    const row = `input row ${batch.rowNumbers[index]}`;
    if (!DETAILS.Check(details)) {
      throw new Error(
        `${row}: the remote score answer has no valid details (asked with ?explain=true): ${JSON.stringify(details)}`,
      );
    }
    const { basis, profile } = this.layout.scoring;
    if (details.basis !== basis || details.profile !== profile) {
      throw new Error(
        `${row}: the remote server scored on basis ${details.basis} with profile ${details.profile}, the job asks for basis ${basis} with profile ${profile} (outlay serve --score-profile ${profile})`,
      );
    }
    return {
      outlay_index: details.index,
      savings_index: details.savings_index,
      outlay_percentile: details.percentile,
      reason_codes: details.reasons.map((reason) => reason.code).join(';'),
      expense_flags: flagText(details.flags),
    };
  }
}

const DETAILS = Compile(ScoreDetails);

/**
 * The numbers of a remote score answer's texts. The outputs write the texts the numbers format to
 * (`scoreTexts`), which for an Outlay server are the texts it sent; a text that does not come back the same
 * (a server off the contract: "80", "91.25", a missing key) would be written changed, so it stops the job.
 */
function scoreValuesOf(
  texts: readonly (string | undefined)[],
  batch: WorkBatch,
  index: number,
): Float64Array {
  const values = Float64Array.from(texts, Number);
  if (!formatsBack(values, texts)) {
    throw new Error(
      `input row ${batch.rowNumbers[index]}: the remote score answer ${JSON.stringify(texts)} is not a PSA in whole units and two scores in tenths from 0.0 to 100.0`,
    );
  }
  return values;
}

/** Whether `scoreTexts` of `values` gives `texts` back; false too when a value has no text (91.25, NaN). */
function formatsBack(values: Float64Array, texts: readonly (string | undefined)[]): boolean {
  try {
    return scoreTexts(values).every((text, i) => text === texts[i]);
  } catch {
    return false;
  }
}
