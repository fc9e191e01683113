/**
 * Strict validation of an operation request against the schema, with errors as `{path, message}`
 * (path = JSON Pointer into the body). No coercion: "50000" is not a number, 12345 is not a ZIP.
 */
import { Compile } from '../vendor/typebox.js';
import { plainCheck, plainFields } from './plain-check.js';
import type { Demographics, ErrorItem, InvalidRequestBody, OperationRequest } from './schemas.js';
import {
  Demographics as DemographicsSchema,
  GivenBudget,
  OperationRequest as OperationRequestSchema,
  ZIP_PATTERN,
} from './schemas.js';

const compiled = Compile(OperationRequestSchema);
const isPlainValid = plainCheck(OperationRequestSchema);

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
      return [
        {
          path: e.instancePath,
          message: `must be one of ${(e.params.allowedValues as string[]).map((v) => JSON.stringify(v)).join(', ')}`,
        },
      ];
    case 'boolean':
      // TypeBox reports each unknown field twice (here as "schema is false"); the additionalProperties case names it.
      return [];
    default:
      return [{ path: e.instancePath, message: e.message }];
  }
}

/** Deduplicated, deterministic list of errors for a body that failed the schema. */
function errorsOf(body: unknown): ErrorItem[] {
  const seen = new Set<string>();
  const out: ErrorItem[] = [];
  for (const raw of compiled.Errors(body) as Iterable<RawError>) {
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
 * Field combinations the schema cannot express and no household has: a married couple or a parent with a
 * child is at least two people (in CE 2014 every one-member consumer unit is FAM_TYPE 8, single).
 */
function contradicts(demographics: Demographics): boolean {
  const type = demographics.household_type;
  return type !== undefined && type !== 'single_or_other' && demographics.household_members === 1;
}

/** The errors of `contradicts`, for the slow path. */
function contradictions(demographics: Demographics): ErrorItem[] {
  if (!contradicts(demographics)) return [];
  const type = demographics.household_type;
  return [
    {
      path: '/demographics/household_type',
      message: `must be "single_or_other" when household_members is 1 ("${type}" needs at least 2 members)`,
    },
  ];
}

/**
 * The fast path of validation: the request when the body passes the schema, else undefined (then
 * `validateRequest` gives the errors). Allocates nothing for a 5-digit ZIP. Plain bodies are accepted by
 * the schema-derived plain check; the compiled TypeBox check decides the rest.
 */
export function checkRequest(body: unknown): ValidRequest | undefined {
  if (!isPlainValid(body) && !compiled.Check(body)) return undefined;
  return accepted(body as OperationRequest);
}

/** A body that passed the schema, as a request: undefined if its fields contradict, the ZIP normalised. */
function accepted(request: OperationRequest): ValidRequest | undefined {
  if (contradicts(request.demographics)) return undefined;
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

/** A body of fixed shape (see `fixedShapeCheck`). */
export interface ShapedBody {
  readonly demographics: Record<string, unknown>;
  readonly budget?: Record<string, unknown>;
}

const SECTION_FIELDS = { demographics: plainFields(DemographicsSchema), budget: plainFields(GivenBudget) };
// The two sections must be all of a request: a field beside them would go unchecked by fixedShapeCheck.
if (Object.keys(OperationRequestSchema.properties).sort().join() !== 'budget,demographics')
  throw new Error('fixed-shape check: the request has fields other than demographics and budget');
const REQUIRED_FIELDS = [...SECTION_FIELDS.demographics.values(), ...SECTION_FIELDS.budget.values()].filter(
  (field) => field.required,
).length;

/**
 * `checkRequest` for bodies that all have one shape, known in advance: `demographics`, and `budget` if
 * some field is in it, plain objects whose own keys are exactly `fields`, each always present (`undefined`
 * when not given) — the batch job's request, refilled for every row. Its keys need no listing and no
 * look-up per body, which was most of the plain check's cost there: only the values are checked, each
 * with the check `checkRequest` applies to its field. It returns what `checkRequest` would for such a
 * body; undefined means that `checkRequest` would refuse it, whose `validateRequest` then says why.
 */
export function fixedShapeCheck(
  fields: readonly ShapeField[],
): (body: ShapedBody) => ValidRequest | undefined {
  const checks = fields.map(({ section, name }) => {
    const field = SECTION_FIELDS[section].get(name);
    if (field === undefined) throw new Error(`fixed-shape check: ${section} has no field "${name}"`);
    return { inBudget: section === 'budget', name, check: field.check, required: field.required };
  });
  if (new Set(fields.map(({ section, name }) => `${section}/${name}`)).size !== fields.length)
    throw new Error('fixed-shape check: a field is listed twice');
  // A shape without every required field never passes: its bodies all lack one.
  if (checks.filter((field) => field.required).length !== REQUIRED_FIELDS) return () => undefined;
  return (body) => {
    const { demographics, budget } = body;
    for (let i = 0; i < checks.length; i++) {
      const { inBudget, name, check, required } = checks[i]!;
      const value = (inBudget ? budget! : demographics)[name];
      // An optional field present as `undefined` counts as absent, as in the plain check and TypeBox.
      if (value === undefined && !required) continue;
      if (!check(value)) return undefined;
    }
    return accepted(body as OperationRequest);
  };
}

/** Validate an already-parsed JSON body. */
export function validateRequest(body: unknown): Validation {
  const request = checkRequest(body);
  if (request !== undefined) return { ok: true, request };
  const schemaErrors = errorsOf(body);
  const errors =
    schemaErrors.length > 0 ? schemaErrors : contradictions((body as OperationRequest).demographics);
  return {
    ok: false,
    error: invalidRequest(errors.length > 0 ? errors : [{ path: '', message: 'must be an object' }]),
  };
}
