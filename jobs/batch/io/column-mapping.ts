/**
 * How an input file's columns become request fields. Columns named like contract fields (demographics by
 * name, fixed expenses by category name) are used directly, their names compared without regard to case,
 * spaces and underscores (`Net Annual Income`, `NET_ANNUAL_INCOME`: what spreadsheets export); `--map FILE` renames a user's columns and says
 * how booleans are written. Everything is checked against the header before any row is read, so a file
 * that could never score fails once with a clear message instead of rejecting every row.
 */
import { readFile } from 'node:fs/promises';
import { distance } from 'fastest-levenshtein';
import { CATEGORIES } from '../../../src/contract/categories.js';
import { Demographics } from '../../../src/contract/schemas.js';
import { accountForColumns, type ColumnUse } from './column-use.js';
import type { ContractField, FieldKind } from './contract-field.js';
import { LOAN_FIELDS } from './loan-fields.js';

export type { ContractField, FieldKind } from './contract-field.js';

const kindOf = (schemaType: unknown): FieldKind =>
  schemaType === 'boolean' ? 'boolean' : schemaType === 'string' ? 'text' : 'number';

const requiredDemographics = new Set<string>((Demographics as { required?: string[] }).required ?? []);

export const CONTRACT_FIELDS: readonly ContractField[] = [
  ...Object.entries(Demographics.properties as Record<string, { type?: unknown }>).map(
    ([name, schema]): ContractField => ({
      name,
      path: `/demographics/${name}`,
      section: 'demographics',
      kind: kindOf(schema.type),
      integer: schema.type === 'integer',
      required: requiredDemographics.has(name),
    }),
  ),
  ...CATEGORIES.map(
    (name): ContractField => ({
      name,
      path: `/budget/${name}`,
      section: 'budget',
      kind: 'number',
      integer: false,
      required: false,
    }),
  ),
];

const CONTRACT_FIELD_BY_NAME = new Map(CONTRACT_FIELDS.map((field) => [field.name, field]));

/** Fields a batch row may have beside the contract's, which a map may rename columns to. */
const BATCH_FIELDS: ReadonlySet<string> = new Set(LOAN_FIELDS);

/** A header name as compared with contract field names: lower case, without spaces and underscores. */
export const headerKey = (name: string) => name.toLowerCase().replace(/[\s_]+/g, '');

const CONTRACT_FIELD_BY_KEY = new Map(CONTRACT_FIELDS.map((field) => [headerKey(field.name), field]));

/** The contract field an input column supplies: renamed by the map (exactly), or by its own name. */
const fieldOfColumn = (name: string, map: ColumnMap) => {
  const renamed = map.columns[name];
  return renamed === undefined
    ? CONTRACT_FIELD_BY_KEY.get(headerKey(name))
    : CONTRACT_FIELD_BY_NAME.get(renamed);
};

export interface ColumnMap {
  /** Input column name → contract field name. */
  readonly columns: Readonly<Record<string, string>>;
  /** Words that mean true and false in boolean columns (exact, case-sensitive). */
  readonly booleans: { readonly true: readonly string[]; readonly false: readonly string[] };
  /** Columns to pass through unused although their names are near a field (`--pass-through`). */
  readonly passThrough?: readonly string[];
}

/**
 * The boolean spellings read without a map: JSON's and SQL's `true`/`false` in its cases (pandas writes
 * `True`/`False`), `1`/`0` (SQL, Excel), `yes`/`no` and `Y`/`N` (survey and loan-system exports). Each
 * means one thing wherever it is written; a map's `booleans` replaces the list.
 */
export const DEFAULT_COLUMN_MAP: ColumnMap = {
  columns: {},
  booleans: {
    true: ['true', 'TRUE', 'True', '1', 'yes', 'YES', 'Yes', 'Y', 'y'],
    false: ['false', 'FALSE', 'False', '0', 'no', 'NO', 'No', 'N', 'n'],
  },
};

/** Reads and checks a `--map` file: `{"columns": {...}, "booleans": {"true": [...], "false": [...]}}`, both optional. */
export async function loadColumnMap(path: string): Promise<ColumnMap> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`--map ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseColumnMap(json, `--map ${path}`);
}

export function parseColumnMap(json: unknown, source: string): ColumnMap {
  const fail = (why: string): never => {
    throw new Error(`${source}: ${why}`);
  };
  if (!isPlainObject(json)) return fail('must be a JSON object with "columns" and/or "booleans"');
  for (const key of Object.keys(json)) {
    if (key !== 'columns' && key !== 'booleans')
      fail(`unknown key "${key}" (expected "columns" or "booleans")`);
  }
  const columns = checkColumns(json.columns ?? {}, fail);
  const booleans = checkBooleans(json.booleans ?? DEFAULT_COLUMN_MAP.booleans, fail);
  return { columns, booleans };
}

/** The "columns" part: each input column names a contract field, and no field is named twice. */
function checkColumns(columns: unknown, fail: (why: string) => never): Record<string, string> {
  if (!isPlainObject(columns))
    return fail('"columns" must be an object of input column name → contract field name');
  const targets = new Set<string>();
  for (const [column, target] of Object.entries(columns)) {
    if (typeof target !== 'string' || !(CONTRACT_FIELD_BY_NAME.has(target) || BATCH_FIELDS.has(target))) {
      fail(
        `"columns"."${column}" must name a contract field (a demographics field or a category) or a loan field (${[...BATCH_FIELDS].join(', ')}), got ${JSON.stringify(target)}`,
      );
    }
    if (targets.has(target as string)) fail(`"columns" maps two input columns to "${target}"`);
    targets.add(target as string);
  }
  return columns as Record<string, string>;
}

/** The "booleans" part: two non-empty word lists with no word in both. */
function checkBooleans(booleans: unknown, fail: (why: string) => never): ColumnMap['booleans'] {
  const truthy = isPlainObject(booleans) ? booleans.true : undefined;
  const falsy = isPlainObject(booleans) ? booleans.false : undefined;
  if (!isWordList(truthy) || !isWordList(falsy)) {
    return fail('"booleans" must be {"true": ["…"], "false": ["…"]} with non-empty lists of strings');
  }
  const clash = truthy.find((word) => falsy.includes(word));
  if (clash !== undefined) fail(`"booleans": "${clash}" is listed as both true and false`);
  return { true: truthy, false: falsy };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isWordList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.length > 0 && value.every((word) => typeof word === 'string' && word !== '');

/** A contract field bound to the input column that supplies it. */
export interface FieldBinding {
  readonly field: ContractField;
  readonly column: number;
}

/** What an input column holds, as far as the reader can tell before reading rows (Arrow types; CSV is text). */
export type ColumnKind = FieldKind | 'other';

export interface RequestPlan {
  readonly bindings: readonly FieldBinding[];
  readonly booleanWords: ReadonlyMap<string, boolean>;
  /** The words accepted in boolean columns, for error messages. */
  readonly booleanWordList: string;
  /** How each input column is used, in header order. */
  readonly columns: readonly ColumnUse[];
}

/**
 * Binds contract fields to input columns. Fails (job-level) on: duplicate column names, a mapped column the
 * input lacks, two columns supplying one field, missing required fields (all named at once), or a column
 * whose type cannot hold its field (e.g. a numeric Arrow `zip`, which has lost its leading zeros).
 */
export function planRequest(
  header: readonly string[],
  kinds: readonly ColumnKind[],
  map: ColumnMap,
): RequestPlan {
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name))
      throw new Error(`the input has two columns named "${name}"; column names must be unique`);
    seen.add(name);
  }
  for (const column of Object.keys(map.columns)) {
    if (!seen.has(column))
      throw new Error(`the column map renames "${column}", but the input has no such column`);
  }
  const bindings: FieldBinding[] = [];
  const boundBy = new Map<string, string>();
  const fieldBy = new Map<string, ContractField>();
  header.forEach((name, column) => {
    const field = fieldOfColumn(name, map);
    if (field === undefined) return;
    const other = boundBy.get(field.name);
    if (other !== undefined) {
      throw new Error(
        `columns "${other}" and "${name}" both supply ${field.name}; rename one or fix the column map`,
      );
    }
    boundBy.set(field.name, name);
    fieldBy.set(name, field);
    checkKind(name, kinds[column] ?? 'text', field);
    bindings.push({ field, column });
  });
  // Take-home pay may be left to the estimate from gross income (docs/batch.md, "Gross income only").
  const estimated = (field: ContractField) =>
    field.name === 'net_annual_income' && boundBy.has('gross_annual_income');
  const missing = CONTRACT_FIELDS.filter(
    (field) => field.required && !boundBy.has(field.name) && !estimated(field),
  );
  if (missing.length > 0) throw new Error(missingFieldsMessage(missing, header, new Set(boundBy.values())));
  const columns = accountForColumns(header, fieldBy, CONTRACT_FIELDS, map.passThrough ?? []);
  const booleanWords = new Map<string, boolean>([
    ...map.booleans.true.map((word) => [word, true] as const),
    ...map.booleans.false.map((word) => [word, false] as const),
  ]);
  return { bindings, booleanWords, booleanWordList: [...booleanWords.keys()].join(', '), columns };
}

/**
 * One message for every required field the header lacks, each with the closest unused header name when
 * it is near (a typo or an abbreviation: at most a third of the field's letters differ).
 */
function missingFieldsMessage(
  missing: readonly ContractField[],
  header: readonly string[],
  used: ReadonlySet<string>,
): string {
  const free = header.filter((name) => !used.has(name));
  const described = missing.map((field) => {
    const key = headerKey(field.name);
    let closest: { name: string; distance: number } | undefined;
    for (const name of free) {
      const d = distance(key, headerKey(name));
      if (d <= Math.floor(key.length / 3) && (closest === undefined || d < closest.distance))
        closest = { name, distance: d };
    }
    return closest === undefined ? field.name : `${field.name} (closest column: "${closest.name}")`;
  });
  const noun = missing.length === 1 ? 'column' : 'columns';
  return `the input has no ${noun} for ${described.join(', ')}, which every request needs; header names are matched without regard to case, spaces and underscores (rename with --map)`;
}

/** Text columns can hold any field (cells are parsed like CSV); typed columns must match the field. */
function checkKind(column: string, kind: ColumnKind, field: ContractField): void {
  if (kind === 'text' || kind === field.kind) return;
  // Numbers read as ZIPs (leading zeros restored) and as booleans (1 and 0), cell by cell (./row-request.ts).
  if (kind === 'number' && (field.name === 'zip' || field.kind === 'boolean')) return;
  const expected =
    field.kind === 'text'
      ? 'a string column'
      : field.kind === 'boolean'
        ? 'a boolean or string column'
        : 'a numeric or string column';
  throw new Error(`column "${column}" (${field.name}) must be ${expected}, but its type is ${kind}`);
}
