/**
 * Writes each scored batch, in input order: scored rows and rejects to their files, their figures to the
 * summary and the progress display, and — for a --resume run — a checkpoint every so often.
 */
import type { InputSource } from '../io/input-source.js';
import type { SummaryBuilder } from '../report/summary.js';
import { writeCheckpoint } from './checkpoint.js';
import type { EncodedBatch } from './encode.js';
import type { JobOutputs, OpenedOutputs } from './outputs.js';
import type { Progress } from './progress.js';
import type { SelectedBatch } from './sinks.js';

/** Where and how often a --resume run makes its progress durable. */
export interface Checkpointing {
  readonly path: string;
  /** Ties the checkpoint to the input and options (checkpoint.ts's fingerprintOf). */
  readonly fingerprint: string;
  readonly intervalMs: number;
}

export class BatchWriter {
  rowsScored: number;
  rowsRejected: number;
  /** Every input row numbered up to this one is written (scored, rejected, or not this run's). */
  rowsDone: number;
  private readonly outputs: JobOutputs;
  private readonly rejectedByReason: Map<string, number>;
  private lastCheckpoint = performance.now();

  constructor(
    opened: OpenedOutputs,
    private readonly summary: SummaryBuilder,
    private readonly progress: Progress,
    private readonly source: InputSource,
    private readonly checkpointing: Checkpointing | null,
  ) {
    this.outputs = opened.outputs;
    this.rowsScored = opened.rowsScored;
    this.rowsDone = opened.rowsDone;
    this.rejectedByReason = opened.rejectedByReason;
    this.rowsRejected = [...opened.rejectedByReason.values()].reduce((a, b) => a + b, 0);
  }

  /** Whether `write` needs each batch's input cells (`SelectedBatch.source`). */
  get needsInput(): boolean {
    return this.outputs.scored.needsInput;
  }

  async write(encoded: EncodedBatch, batch: SelectedBatch): Promise<void> {
    const { scored, rejects } = this.outputs;
    await scored.write(encoded, batch);
    if (encoded.rejectsCsv.byteLength > 0) await rejects.write(encoded.rejectsCsv);
    this.count(encoded);
    this.rowsDone = batch.firstRow + batch.length - 1;
    this.progress.update({
      rowsIn: this.rowsScored + this.rowsRejected,
      rowsRejected: this.rowsRejected,
      fraction: this.source.sizeBytes ? this.source.bytesRead() / this.source.sizeBytes : undefined,
    });
    await this.checkpointWhenDue();
  }

  /** A batch with nothing to score counts as done once everything before it is written. */
  skip(lastRow: number): void {
    this.rowsDone = Math.max(this.rowsDone, lastRow);
  }

  private count(encoded: EncodedBatch): void {
    this.summary.addRows(encoded.stats, encoded.scored);
    this.summary.addZipsPadded(encoded.zipsPadded);
    for (const reason of encoded.rejectReasons) {
      this.summary.addRejected(reason);
      this.rejectedByReason.set(reason, (this.rejectedByReason.get(reason) ?? 0) + 1);
    }
    this.rowsScored += encoded.scored;
    this.rowsRejected += encoded.rejectReasons.length;
  }

  private async checkpointWhenDue(): Promise<void> {
    const checkpointing = this.checkpointing;
    if (checkpointing === null || performance.now() - this.lastCheckpoint < checkpointing.intervalMs) return;
    await this.checkpoint();
  }

  /** Makes everything written so far durable and records it (a --resume run only; otherwise nothing). */
  async checkpoint(): Promise<void> {
    const checkpointing = this.checkpointing;
    if (checkpointing === null) return;
    await writeCheckpoint(checkpointing.path, {
      fingerprint: checkpointing.fingerprint,
      rowsDone: this.rowsDone,
      // A --resume run writes a CSV file (a stream is refused with --resume).
      scoredBytes: await this.outputs.scored.file!.sync(),
      rejectsBytes: await this.outputs.rejects.sync(),
      rejectedByReason: Object.fromEntries(this.rejectedByReason),
      zipsPadded: this.summary.zipsPadded,
    });
    this.lastCheckpoint = performance.now();
  }
}
