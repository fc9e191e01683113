/**
 * One input row → one request body. Cells from CSV are text and are parsed strictly; typed Arrow cells are
 * used as they are. An empty cell means "not given". A cell that cannot be read becomes an error with the
 * field's request path, so the reject says which field and why, like the API does.
 */
import type { ErrorItem } from '../contract/schemas.js';
import {
  fixedShapeCheck,
  type ShapedBody,
  type ValidRequest,
  validateRequest,
} from '../contract/validate.js';
import type { ContractField, RequestPlan } from './column-mapping.js';
import { type CellGrid, cellAt } from './input-source.js';

export type Cell = string | number | boolean | bigint | null | undefined;

/** Decimal digits with an optional sign and fraction: what a person or a spreadsheet writes for an amount. */
const PLAIN_NUMBER = /^-?[0-9]+(?:\.[0-9]+)?$/;

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
 * One request body refilled for every row, for a caller that is done with a row's body before it fills the
 * next (the local engine reads it synchronously). Building a fresh body per row (two objects that grow key
 * by key, and the closure reading the cells) was most of the batch job's per-row cost outside the engine.
 * Every bound field is always present, `undefined` when not given, which the contract counts as absent.
 */
export class ReusedRequest {
  readonly body: ShapedBody;
  private readonly targets: Record<string, unknown>[];
  private readonly check: (body: ShapedBody) => ValidRequest | undefined;

  constructor(private readonly plan: RequestPlan) {
    const demographics: Record<string, unknown> = {};
    const budget: Record<string, unknown> = {};
    this.targets = plan.bindings.map(({ field }) => {
      const target = field.section === 'demographics' ? demographics : budget;
      target[field.name] = undefined;
      return target;
    });
    const givesBudget = this.targets.includes(budget);
    this.body = givesBudget ? { demographics, budget } : { demographics };
    this.check = fixedShapeCheck(plan.bindings.map(({ field }) => field));
  }

  /** The body as the request `checkRequest` would make of it, or undefined if the contract refuses it. */
  validated(): ValidRequest | undefined {
    return this.check(this.body);
  }

  /** Fills the body from row `row`; false when a cell cannot be read (`buildRequest` then says why). */
  fill(cells: CellGrid, row: number): boolean {
    const { bindings } = this.plan;
    for (let b = 0; b < bindings.length; b++) {
      const { field, column } = bindings[b]!;
      const value = readCell(this.plan, field, cellAt(cells, row, column));
      if (value instanceof CellError) return false;
      this.targets[b]![field.name] = value;
    }
    return true;
  }
}

/**
 * All errors of a row whose cells could not all be read: the cell errors, then what the contract says about
 * the rest of the body (without "is required" for the fields whose cells were unreadable).
 */
export function rowErrors(request: RowRequest): ErrorItem[] {
  const unreadable = new Set(request.errors.map((error) => error.path));
  const validation = validateRequest(request.body);
  const rest = validation.ok ? [] : validation.error.errors.filter((error) => !unreadable.has(error.path));
  return [...request.errors, ...rest];
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
      return typeof cell === 'string' ? cell : new CellError('must be text');
  }
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
  const value = typeof cell === 'string' ? plan.booleanWords.get(cell) : undefined;
  return value ?? new CellError(`must be one of: ${plan.booleanWordList}`);
}
