/** What turns work batches into encoded output: the local engine (in process or in workers) or a remote API. */
import type { EncodedBatch } from './encode.js';
import type { WorkBatch } from './work.js';

export interface BatchScorer {
  readonly engineKind: 'local' | 'remote';
  readonly modelVersion: string;
  /** The year of the prices the amounts are in; undefined when a remote server does not say. */
  readonly priceYear: number | undefined;
  /** Batches worth having in flight at once to keep every worker or connection busy. */
  readonly parallelBatches: number;
  score(batch: WorkBatch): Promise<EncodedBatch>;
  close(): Promise<void>;
}
