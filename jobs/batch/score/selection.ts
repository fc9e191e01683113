/**
 * Which rows of a batch this run scores: those not already written by an earlier run (`--resume`), turned
 * into the work sent to a scorer. A shard's source reads only the shard's own rows (`--shard I/N`).
 */
import { type SourceBatch, selectCells } from '../io/input-source.js';
import type { WorkBatch } from './work.js';

export interface Shard {
  /** 1-based, as written in `--shard I/N`. */
  readonly index: number;
  readonly count: number;
}

/** The chosen rows' indexes in the batch; null when every row is chosen (nothing to skip). */
export function selectRows(batch: SourceBatch, resumeAfter: number): Int32Array | null {
  if (resumeAfter < batch.firstRow) return null;
  const chosen: number[] = [];
  for (let i = 0; i < batch.length; i++) if (batch.firstRow + i > resumeAfter) chosen.push(i);
  return Int32Array.from(chosen);
}
export function workOf(seq: number, batch: SourceBatch, selection: Int32Array | null): WorkBatch {
  if (selection === null) {
    const rowNumbers = new Int32Array(batch.length);
    for (let i = 0; i < batch.length; i++) rowNumbers[i] = batch.firstRow + i;
    return { seq, rowNumbers, cells: batch.cells };
  }
  return {
    seq,
    rowNumbers: selection.map((i) => batch.firstRow + i),
    cells: selectCells(batch.cells, selection),
  };
}
