/**
 * Strict validation of an operation request against the schema, with errors as `{path, message}`
 * (path = JSON Pointer into the body). No coercion: "50000" is not a number, 12345 is not a ZIP.
 * TypeBox's check compiled from the schema is the one validator: the API, the command line and the
 * batch job all accept exactly what it accepts (docs/fast-paths.md lists what is measured against it).
 */
import { Compile, Settings, type TObject, type TSchema } from '../vendor/typebox.js';
import { CATEGORIES } from './categories.js';
import { groupingConflicts } from './grouping.js';
import { LIMITS } from './limits.js';
import type { Demographics, ErrorItem, InvalidRequestBody, OperationRequest } from './schemas.js';
import {
  Demographics as DemographicsSchema,
  GivenBudget,
  GroupedInput,
  LoanRequest,
  OperationRequest as OperationRequestSchema,
  ScoreOptions,
  Transformer,
  ZIP_PATTERN,
} from './schemas.js';

const compiled = Compile(OperationRequestSchema);

export const INVALID_REQUEST_MESSAGE = 'Invalid request body' as const;

/** A request that passed validation, with its ZIP normalised to 5 digits. */
export type ValidRequest = OperationRequest & { readonly __valid: true };

export type Validation = { ok: true; request: ValidRequest } | { ok: false; error: InvalidRequestBody };

interface RawError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

function describe(e: RawError): ErrorItem[] {
  switch (e.keyword) {
    case 'additionalProperties':
      return ((e.params.additionalProperties as string[]) ?? []).map((key) => ({
        path: `${e.instancePath}/${escapePointer(key)}`,
        message: 'is not an allowed field',
      }));
    case 'required':
      return ((e.params.requiredProperties as string[]) ?? []).map((key) => ({
        path: `${e.instancePath}/${escapePointer(key)}`,
        message: 'is required',
      }));
    case 'pattern':
      return [
        {
          path: e.instancePath,
          message:
            e.params.pattern === ZIP_PATTERN
              ? 'must be a 5-digit ZIP code or ZIP+4 (12345 or 12345-6789)'
              : e.message,
        },
      ];
    case 'enum':
      return [{ path: e.instancePath, message: enumMessage(e.params.allowedValues as string[]) }];
    case 'boolean':
      // TypeBox reports each unknown field twice (here as "schema is false"); the additionalProperties case names it.
      return [];
    default:
      return [{ path: e.instancePath, message: e.message }];
  }
}

/** Names the allowed values, or for a category the list they come from (38 would drown the message). */
const enumMessage = (allowed: readonly string[]): string =>
  allowed === CATEGORIES
    ? 'must be one of the 38 budget categories (src/contract/categories.ts)'
    : `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;

/** The most problems a rejection lists; past it, one last item says how many more there are (docs/api.md). */
export const MAX_LISTED_ERRORS = 50;

/**
 * At most three raw errors per object or property of the schema (a type error, a bound, and for an object
 * its missing and its unknown fields), besides the one per unknown key below.
 */
const RULE_ERRORS =
  3 *
  (Object.keys(OperationRequestSchema.properties).length +
    Object.keys(DemographicsSchema.properties).length +
    Object.keys(GivenBudget.properties).length +
    Object.keys(LoanRequest.properties).length +
    Object.keys(ScoreOptions.properties).length +
    Object.keys(Transformer.properties).length +
    1);

/** The raw errors one element of `grouped_inputs` can give: its own rules, and a type error per item. */
const GROUP_RULE_ERRORS = 3 * (Object.keys(GroupedInput.properties).length + 1);

const keyCount = (value: unknown): number =>
  typeof value === 'object' && value !== null ? Object.keys(value).length : 0;

/**
 * The raw errors TypeBox must collect to reach every problem of `body`. It stops at its `maxErrors`
 * setting (default 8, a guard against unbounded lists), and reports each unknown field twice: first as
 * "schema is false" for each key, then once for all of them; eight unknown fields filled the list before
 * any of them was named. One per key of the body's objects plus the schema's rules reaches them all; the
 * body's size (the server's bodyLimit) bounds the keys.
 */
function errorCapacity(body: unknown): number {
  const request = body as Record<keyof OperationRequest, unknown> | null;
  if (typeof request !== 'object' || request === null) return RULE_ERRORS;
  const { demographics, budget, loan, options, transformer, grouped_inputs: groups } = request;
  return (
    RULE_ERRORS +
    keyCount(body) +
    keyCount(demographics) +
    keyCount(budget) +
    keyCount(loan) +
    keyCount(options) +
    keyCount(transformer) +
    groupErrorCapacity(groups)
  );
}

/** `errorCapacity`'s share for `grouped_inputs`: per group its rules, its keys and two per item. */
function groupErrorCapacity(groups: unknown): number {
  if (!Array.isArray(groups)) return keyCount(groups);
  let capacity = groups.length;
  for (const group of groups as Record<string, unknown>[])
    capacity += GROUP_RULE_ERRORS + keyCount(group) + 2 * keyCount(group?.items);
  return capacity;
}

function rawErrorsOf(body: unknown): Iterable<RawError> {
  const { maxErrors } = Settings.Get();
  Settings.Set({ maxErrors: errorCapacity(body) });
  try {
    return compiled.Errors(body) as Iterable<RawError>;
  } finally {
    Settings.Set({ maxErrors });
  }
}

/** Deduplicated, deterministic list of errors for a body that failed the schema. */
function errorsOf(body: unknown): ErrorItem[] {
  const seen = new Set<string>();
  const out: ErrorItem[] = [];
  for (const raw of rawErrorsOf(body)) {
    for (const item of describe(raw)) {
      const key = `${item.path}\u0000${item.message}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(item);
      }
    }
  }
  return out;
}

export const invalidRequest = (errors: ErrorItem[]): InvalidRequestBody => ({
  message: INVALID_REQUEST_MESSAGE,
  errors,
});

/**
 * Rules the schema does not state, so that its own messages stay as documented:
 * - a married couple or a parent with a child is at least two people (in CE 2014 every one-member consumer
 *   unit is FAM_TYPE 8, single);
 * - take-home pay below LIMITS.netIncomeMin (a dollar a year) describes no household: every rounded amount of
 *   its budget would be 0. The schema's own bound stays `> 0`, whose message callers already handle;
 * - grouped inputs that conflict with each other or with `budget` (src/contract/grouping.ts);
 * - a household declared rent-free (`options.rent_free`) with a housing amount above 0 or in a group.
 */
function contradicts(request: OperationRequest): boolean {
  const { demographics } = request;
  return (
    isCoupleOfOne(demographics) ||
    demographics.net_annual_income < LIMITS.netIncomeMin ||
    (request.grouped_inputs !== undefined && groupingConflicts(request).length > 0) ||
    rentFreeConflict(request) !== undefined
  );
}

/** Why `options.rent_free` contradicts the request's housing amount, or undefined when it does not. */
function rentFreeConflict(request: OperationRequest): string | undefined {
  if (request.options?.rent_free !== true) return undefined;
  const housing = request.budget?.mortgage_and_rent;
  if (housing !== undefined && housing > 0) {
    return `contradicts budget.mortgage_and_rent ${housing}: a rent-free household states no housing amount, or 0`;
  }
  const grouped = request.grouped_inputs?.some((group) => group.items.includes('mortgage_and_rent'));
  return grouped === true
    ? 'contradicts grouped_inputs holding mortgage_and_rent: a rent-free household states no housing amount'
    : undefined;
}

function isCoupleOfOne({ household_type: type, household_members: members }: Demographics): boolean {
  return type !== undefined && type !== 'single_or_other' && members === 1;
}

/** The errors of `contradicts`, for the slow path. */
function contradictions(request: OperationRequest): ErrorItem[] {
  const { demographics } = request;
  const errors: ErrorItem[] = [];
  if (isCoupleOfOne(demographics)) {
    errors.push({
      path: '/demographics/household_type',
      message: `must be "single_or_other" when household_members is 1 ("${demographics.household_type}" needs at least 2 members)`,
    });
  }
  if (demographics.net_annual_income < LIMITS.netIncomeMin) {
    errors.push({
      path: '/demographics/net_annual_income',
      message: `must be >= ${LIMITS.netIncomeMin} (below a dollar a year every amount of a budget rounds to 0)`,
    });
  }
  errors.push(...groupingConflicts(request));
  const rentFree = rentFreeConflict(request);
  if (rentFree !== undefined) errors.push({ path: '/options/rent_free', message: rentFree });
  return errors;
}

/**
 * The request when the body passes the schema, else undefined (then `validateRequest` gives the errors).
 * Allocates nothing for a 5-digit ZIP.
 */
export function checkRequest(body: unknown): ValidRequest | undefined {
  return compiled.Check(body) ? accepted(body as OperationRequest) : undefined;
}

/** A body that passed the schema, as a request: undefined if its fields contradict, the ZIP normalised. */
function accepted(request: OperationRequest): ValidRequest | undefined {
  if (contradicts(request)) return undefined;
  const zip = request.demographics.zip;
  const normalised =
    zip.length === 5
      ? request
      : { ...request, demographics: { ...request.demographics, zip: zip.slice(0, 5) } };
  return normalised as ValidRequest;
}

/** A field of a body of fixed shape: the object that holds it, and its key. */
export interface ShapeField {
  readonly section: 'demographics' | 'budget';
  readonly name: string;
}

/** A body of fixed shape (see `FixedShapeRequests`). */
export interface ShapedBody {
  readonly demographics: Record<string, unknown>;
  readonly budget?: Record<string, unknown>;
}

/** One value per row for each field of a shape, in the shape's order: `values[field][row]`. */
export type ShapeColumns = readonly (readonly unknown[])[];

/** A field's own check, compiled from its schema, and whether the request must have it. */
interface FieldCheck {
  readonly check: (value: unknown) => boolean;
  readonly required: boolean;
}

function fieldChecks(section: TObject): ReadonlyMap<string, FieldCheck> {
  const required = new Set(section.required);
  return new Map(
    Object.entries(section.properties as Record<string, TSchema>).map(([name, schema]) => {
      const compiledField = Compile(schema);
      return [name, { check: (value: unknown) => compiledField.Check(value), required: required.has(name) }];
    }),
  );
}

const SECTION_FIELDS = { demographics: fieldChecks(DemographicsSchema), budget: fieldChecks(GivenBudget) };
/**
 * The request's fields a batch row never has: the score's `loan` and `options`, and the grouping's
 * `grouped_inputs` and `transformer`, all optional, so a body of the two sections alone is a whole
 * request. Any other field beside the sections would go unchecked here.
 */
const NOT_IN_BATCH_ROWS = ['loan', 'options', 'grouped_inputs', 'transformer'];
if (
  Object.keys(OperationRequestSchema.properties).sort().join() !==
    ['budget', 'demographics', ...NOT_IN_BATCH_ROWS].sort().join() ||
  NOT_IN_BATCH_ROWS.some((name) => (OperationRequestSchema.required as string[]).includes(name))
)
  throw new Error('fixed-shape check: the request has fields other than its sections and optional ones');
const REQUIRED_FIELDS = [...SECTION_FIELDS.demographics.values(), ...SECTION_FIELDS.budget.values()].filter(
  (field) => field.required,
).length;
/** What a contract field's name looks like; the body's filler is generated code that names each field. */
const FIELD_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * `checkRequest` for the rows of a batch whose bodies all have one shape, known in advance: `demographics`,
 * and `budget` if some field is in it, whose own keys are exactly `fields`, each present (`undefined` when
 * not given). The values come column by column and are checked a field at a time over all the rows, each
 * with its own schema's compiled TypeBox check (the property of the request schema `checkRequest` checks);
 * a row that passes is then copied into one reused body for the last checks and the engine.
 *
 * Fast path (docs/fast-paths.md): building and checking a body per row instead cost the batch job 8 %
 * more CPU on CSV (200,000 rows, --workers 1, medians of 12 alternated runs). test/contract/fixed-shape-check.test.ts compares it with
 * `checkRequest` over generated rows.
 */
export class FixedShapeRequests {
  /** The body every accepted row is copied into: valid until the next `request`. */
  readonly body: ShapedBody;
  readonly #checks: FieldCheck[];
  /** Null when the shape lacks a required field: then every body is refused. */
  readonly #fill: ((body: ShapedBody, values: ShapeColumns, row: number) => void) | null;

  constructor(fields: readonly ShapeField[]) {
    this.#checks = fields.map(({ section, name }) => {
      const field = SECTION_FIELDS[section].get(name);
      if (field === undefined) throw new Error(`fixed-shape check: ${section} has no field "${name}"`);
      return { check: field.check, required: field.required };
    });
    if (new Set(fields.map(({ section, name }) => `${section}/${name}`)).size !== fields.length)
      throw new Error('fixed-shape check: a field is listed twice');
    const demographics: Record<string, unknown> = {};
    const budget: Record<string, unknown> = {};
    for (const { section, name } of fields)
      (section === 'demographics' ? demographics : budget)[name] = undefined;
    this.body = fields.some(({ section }) => section === 'budget')
      ? { demographics, budget }
      : { demographics };
    const complete = this.#checks.filter((field) => field.required).length === REQUIRED_FIELDS;
    this.#fill = complete ? bodyFiller(fields) : null;
  }

  /** Marks (1) in `refused` each of the first `count` rows whose values the contract refuses. */
  refuse(values: ShapeColumns, count: number, refused: Uint8Array): void {
    if (this.#fill === null) {
      refused.fill(1, 0, count);
      return;
    }
    for (let f = 0; f < this.#checks.length; f++) {
      const { check, required } = this.#checks[f]!;
      refuseColumn(values[f]!, count, check, required, refused);
    }
  }

  /**
   * Row `row`, which `refuse` left unmarked, as the request `checkRequest` would make of its body, or
   * undefined if it refuses it (fields that contradict each other).
   */
  request(values: ShapeColumns, row: number): ValidRequest | undefined {
    this.#fill!(this.body, values, row);
    return accepted(this.body as OperationRequest);
  }
}

// A function of its own, so that each field's loop is compiled around its own check.
function refuseColumn(
  values: readonly unknown[],
  count: number,
  check: FieldCheck['check'],
  required: boolean,
  refused: Uint8Array,
): void {
  for (let row = 0; row < count; row++) {
    const value = values[row];
    // An optional field present as `undefined` counts as absent, as in the plain check and TypeBox.
    if (value === undefined && !required) continue;
    if (!check(value)) refused[row] = 1;
  }
}

/**
 * Copies row `row` of `values` into a body of the shape, field by field under its own name
 * (`body.demographics.age = values[0][row]; …`), so that each assignment is one monomorphic store. The
 * code is generated from the contract's own field names, each checked against FIELD_NAME first.
 */
function bodyFiller(
  fields: readonly ShapeField[],
): (body: ShapedBody, values: ShapeColumns, row: number) => void {
  const assignments = fields.map(({ section, name }, f) => {
    if (!FIELD_NAME.test(name)) throw new Error(`fixed-shape check: "${name}" is not a field name`);
    return `body.${section}.${name} = values[${f}][row];`;
  });
  return new Function('body', 'values', 'row', assignments.join('\n')) as (
    body: ShapedBody,
    values: ShapeColumns,
    row: number,
  ) => void;
}

/** Validate an already-parsed JSON body. */
export function validateRequest(body: unknown): Validation {
  const request = checkRequest(body);
  if (request !== undefined) return { ok: true, request };
  const schemaErrors = errorsOf(body);
  const errors = schemaErrors.length > 0 ? schemaErrors : contradictions(body as OperationRequest);
  return {
    ok: false,
    error: invalidRequest(errors.length > 0 ? bounded(errors) : [{ path: '', message: 'must be an object' }]),
  };
}

/** The first MAX_LISTED_ERRORS errors, and when there are more, an item at path "" that counts the rest. */
function bounded(errors: ErrorItem[]): ErrorItem[] {
  const unlisted = errors.length - MAX_LISTED_ERRORS;
  if (unlisted <= 0) return errors;
  const more = { path: '', message: `and ${unlisted} more problem${unlisted === 1 ? '' : 's'}, not listed` };
  return [...errors.slice(0, MAX_LISTED_ERRORS), more];
}
