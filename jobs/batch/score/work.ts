/**
 * A unit of work: a batch of input rows with their row numbers, and how each row becomes a request. Shared
 * by the local scorer (main thread or worker thread) and the remote scorer.
 */
import type { ErrorItem } from '../../../src/contract/schemas.js';
import { withEstimatedTakeHome } from '../../../src/engine/take-home.js';
import { type CellGrid, cellAt } from '../io/input-source.js';
import { type RowLoan, readLoan } from '../io/loan-columns.js';
import { buildRequest, type RowRequest, rowErrors } from '../io/row-request.js';
import type { OutputLayout } from './layout.js';
import { withTakeHomeOption } from './take-home-rows.js';
import { withPrefixZip, zip3Of } from './zip3.js';

export interface WorkBatch {
  /** Position of the batch in the input; output is written in this order. */
  readonly seq: number;
  /** 1-based input row number of each row (shards skip rows, so they need not be consecutive). */
  readonly rowNumbers: Int32Array;
  readonly cells: CellGrid;
}

export type PreparedRow =
  | { readonly ok: true; readonly body: { demographics: Record<string, unknown> } }
  | { readonly ok: false; readonly errors: readonly ErrorItem[]; readonly reason?: string };

const RAGGED_REASON = '(row) has a different number of fields than the header';

export function prepareRow(layout: OutputLayout, cells: CellGrid, index: number): PreparedRow {
  if (cells.kind === 'rows') {
    const unreadable = cells.unreadable?.get(index);
    if (unreadable !== undefined)
      return { ok: false, errors: [{ path: '', message: unreadable.message }], reason: unreadable.reason };
    const fields = cells.rows[index]!.length;
    const expected = layout.header.length;
    if (fields !== expected) {
      return {
        ok: false,
        errors: [{ path: '', message: `has ${fields} fields; the header has ${expected}` }],
        reason: RAGGED_REASON,
      };
    }
  }
  const request = buildRequest(layout.plan, (column) => cellAt(cells, index, column));
  return request.errors.length === 0
    ? { ok: true, body: request.body }
    : { ok: false, errors: rowErrors(request, asScored) };
}

/**
 * A row's body as the scorers check it, so that a bad cell's row lists only what is wrong with it: its
 * take-home estimated when it gives gross income alone, a ZIP3 replaced by a 5-digit ZIP of its prefix.
 */
function asScored(body: RowRequest['body']): unknown {
  const estimated = withEstimatedTakeHome(withTakeHomeOption(body));
  const scored = (estimated.ok ? estimated.body : body) as RowRequest['body'];
  const prefix = zip3Of(scored.demographics.zip);
  return prefix === undefined ? scored : withPrefixZip(scored, prefix);
}

export type { RowLoan } from '../io/loan-columns.js';

const NO_LOAN_COLUMNS: RowLoan = { ok: true, payment: null };

/** A row's loan (io/loan-columns.ts); no loan when the input has no loan columns. */
export const rowLoan = (layout: OutputLayout, cells: CellGrid, index: number): RowLoan =>
  layout.loan === null ? NO_LOAN_COLUMNS : readLoan(layout.loan, (column) => cellAt(cells, index, column));
