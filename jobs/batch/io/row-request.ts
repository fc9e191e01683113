/**
 * One input row → one request body. Cells from CSV are text and are parsed strictly; typed Arrow cells are
 * used as they are. An empty cell means "not given". A cell that cannot be read becomes an error with the
 * field's request path, so the reject says which field and why, like the API does.
 */
import type { ErrorItem } from '../../../src/contract/schemas.js';
import { FixedShapeRequests, type ValidRequest, validateRequest } from '../../../src/contract/validate.js';
import type { ContractField, RequestPlan } from './column-mapping.js';
import { type CellGrid, cellAt } from './input-source.js';
import type { Cell } from './typed-columns.js';
import { NUMERIC_ZIP_MESSAGE, zipText } from './zip-cell.js';

/** Decimal digits with an optional sign and fraction: what a person or a spreadsheet writes for an amount. */
export const PLAIN_NUMBER = /^-?[0-9]+(?:\.[0-9]+)?$/;

export const NUMBER_TEXT_MESSAGE =
  'must be a number written with digits, an optional leading - and an optional decimal point (no spaces, thousands separators, currency signs or exponents)';

export interface RowRequest {
  readonly body: { demographics: Record<string, unknown>; budget?: Record<string, unknown> };
  /** Cells that could not be read; the body omits their fields. */
  readonly errors: ErrorItem[];
}

export function buildRequest(plan: RequestPlan, cellOf: (column: number) => Cell): RowRequest {
  const demographics: Record<string, unknown> = {};
  let budget: Record<string, unknown> | undefined;
  let errors: ErrorItem[] | undefined;
  for (const { field, column } of plan.bindings) {
    const value = readCell(plan, field, cellOf(column));
    if (value === undefined) continue;
    if (value instanceof CellError) {
      errors ??= [];
      errors.push({ path: field.path, message: value.message });
    } else if (field.section === 'demographics') {
      demographics[field.name] = value;
    } else {
      budget ??= {};
      budget[field.name] = value;
    }
  }
  const body = budget === undefined ? { demographics } : { demographics, budget };
  return { body, errors: errors ?? [] };
}

/**
 * The requests of a batch's rows, read and checked column by column (`FixedShapeRequests`): a caller that
 * is done with a row's request before it asks for the next (the local engine reads it synchronously) gets
 * each accepted row as one reused body. Building a fresh body per row (two objects that grow key by key,
 * and the closure reading the cells) was most of the batch job's per-row cost outside the engine. Every
 * bound field is always present, `undefined` when not given, which the contract counts as absent.
 */
export class BatchRequests {
  private readonly shape: FixedShapeRequests;
  /** The batch's values, one array per binding: `values[binding][row]`. */
  private readonly values: unknown[][];
  /** 1 for a row that must be taken the general way (a cell that cannot be read, a value refused). */
  private refused = new Uint8Array(0);

  constructor(private readonly plan: RequestPlan) {
    this.shape = new FixedShapeRequests(plan.bindings.map(({ field }) => field));
    this.values = plan.bindings.map(() => []);
  }

  /**
   * Reads and checks the first `count` rows of `cells`; a CSV row without exactly `width` cells is left to
   * the general way (which reports it).
   */
  load(cells: CellGrid, count: number, width: number): void {
    if (this.refused.length < count) this.refused = new Uint8Array(count);
    const { refused, plan } = this;
    refused.fill(0, 0, count);
    if (cells.kind === 'rows')
      for (let row = 0; row < count; row++) if (cells.rows[row]!.length !== width) refused[row] = 1;
    plan.bindings.forEach(({ field, column }, b) => {
      readColumn(plan, field, cells, column, count, this.values[b]!, refused);
    });
    this.shape.refuse(this.values, count, refused);
  }

  /**
   * Row `row` as the request `checkRequest` would make of its body, or undefined when it must be taken the
   * general way (`buildRequest` and `validateRequest` then say why). Valid until the next call.
   */
  validated(row: number): ValidRequest | undefined {
    return this.refused[row] === 1 ? undefined : this.shape.request(this.values, row);
  }
}

/** Reads one binding's cells of the first `count` rows into `out`, marking the unreadable in `refused`. */
function readColumn(
  plan: RequestPlan,
  field: ContractField,
  cells: CellGrid,
  column: number,
  count: number,
  out: unknown[],
  refused: Uint8Array,
): void {
  for (let row = 0; row < count; row++) {
    const value = readCell(plan, field, cellAt(cells, row, column));
    if (value instanceof CellError) {
      refused[row] = 1;
      out[row] = undefined;
    } else out[row] = value;
  }
}

/**
 * All errors of a row whose cells could not all be read: the cell errors, then what the contract says about
 * the rest of the body (without "is required" for the fields whose cells were unreadable).
 */
export function rowErrors(
  request: RowRequest,
  asScored: (body: RowRequest['body']) => unknown = (body) => body,
): ErrorItem[] {
  const unreadable = new Set(request.errors.map((error) => error.path));
  const validation = validateRequest(asScored(request.body));
  const rest = validation.ok ? [] : validation.error.errors.filter((error) => !unreadable.has(error.path));
  return [...request.errors, ...rest];
}

/**
 * The value a scored row's cell gave its field, for typed output: undefined when not given. The row was
 * scored, so its cells were read once already; one that cannot be read now is a bug that stops the job.
 */
export function scoredCellValue(plan: RequestPlan, field: ContractField, cell: Cell): unknown {
  const value = readCell(plan, field, cell);
  if (value instanceof CellError)
    throw new Error(`${field.path} ${value.message}, in a row that was scored: the cell read differently`);
  return value;
}

class CellError {
  constructor(readonly message: string) {}
}

function readCell(plan: RequestPlan, field: ContractField, cell: Cell): unknown {
  if (cell === null || cell === undefined || cell === '') return undefined;
  switch (field.kind) {
    case 'number':
      return readNumber(cell);
    case 'boolean':
      return readBoolean(plan, cell);
    case 'text':
      if (field.name === 'zip') return readZip(cell);
      return typeof cell === 'string' ? cell : new CellError('must be text');
  }
}

function readZip(cell: Exclude<Cell, null | undefined>): unknown {
  if (typeof cell === 'boolean') return new CellError('must be text');
  return zipText(cell) ?? new CellError(NUMERIC_ZIP_MESSAGE);
}

function readNumber(cell: Exclude<Cell, null | undefined>): unknown {
  if (typeof cell === 'number')
    return Number.isFinite(cell) ? cell : new CellError('must be a finite number');
  if (typeof cell === 'bigint') {
    const value = Number(cell);
    return Number.isSafeInteger(value) ? value : new CellError('is too large');
  }
  if (typeof cell === 'string' && PLAIN_NUMBER.test(cell)) return Number(cell);
  return new CellError(NUMBER_TEXT_MESSAGE);
}

function readBoolean(plan: RequestPlan, cell: Exclude<Cell, null | undefined>): unknown {
  if (typeof cell === 'boolean') return cell;
  // An integer column (SQL and Excel write booleans as 1 and 0).
  if (typeof cell === 'number' || typeof cell === 'bigint') {
    const value = Number(cell);
    return value === 1 ? true : value === 0 ? false : new CellError('stored as a number must be 1 or 0');
  }
  const value = typeof cell === 'string' ? plan.booleanWords.get(cell) : undefined;
  return value ?? new CellError(`must be one of: ${plan.booleanWordList}`);
}
