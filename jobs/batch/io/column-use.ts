/**
 * Every input column accounted for: used as a contract field, passed through to the output, or refused.
 * A column that names no field but whose name is close to one (the names loan systems, pandas and SQL
 * exports give these fields, or a typo) would otherwise be passed through silently, and the row scored as
 * if the field were absent: a `rent` column unused scores a household as paying no rent. Such a column stops
 * the job, naming the field and the `--map` line that uses it, unless the user declares it pass-through.
 */
import { distance } from 'fastest-levenshtein';
import type { ContractField } from './contract-field.js';

/**
 * Names other systems give the contract's fields, as header keys compare them (case, spaces and underscores
 * ignored). Loan origination systems and public loan files (`home_ownership`, `annual_inc`, `zip_code`),
 * household surveys (`tenure`, `hh_size`, `family_size`), and analysts' own spellings. Listed in
 * docs/batch.md ("Near-miss columns").
 */
export const FIELD_ALIASES: Readonly<Record<string, readonly string[]>> = {
  is_homeowner: [
    'homeowner',
    'home_owner',
    'owns_home',
    'own_home',
    'is_owner',
    'owner',
    'tenure',
    'own_rent',
    'home_ownership',
    'homeownership',
  ],
  household_members: [
    'household_size',
    'hh_size',
    'family_size',
    'household_persons',
    'hh_members',
    'family_members',
    'persons_in_household',
    'num_people',
  ],
  household_type: ['hh_type', 'family_type', 'household_composition'],
  age: ['applicant_age', 'borrower_age', 'age_years'],
  zip: ['zipcode', 'zip_code', 'zip5', 'postal_code', 'postcode', 'post_code', 'postal'],
  net_annual_income: [
    'take_home',
    'take_home_pay',
    'net_income',
    'net_pay',
    'annual_net_income',
    'net_salary',
  ],
  gross_annual_income: [
    'gross_income',
    'annual_income',
    'annual_inc',
    'income',
    'salary',
    'annual_salary',
    'gross_pay',
    'gross_salary',
  ],
  mortgage_and_rent: [
    'rent',
    'mortgage',
    'rent_or_mortgage',
    'mortgage_or_rent',
    'housing_payment',
    'housing_cost',
    'rent_payment',
    'mortgage_payment',
  ],
  other_debt_payments: ['debt_payments', 'debt_payment', 'monthly_debt', 'debt_service'],
  vehicle_insurance: ['car_insurance', 'auto_insurance'],
  food_home: ['groceries'],
  cellular_phone_service: ['cell_phone', 'mobile_phone'],
};

/** How an input column is used; refused columns stop the job and appear in no summary. */
export interface ColumnUse {
  readonly column: string;
  /** The contract field it supplies, or null when it is passed through to the output unused. */
  readonly field: string | null;
  /** A column passed through because the user said so (`--pass-through`), though its name is near a field. */
  readonly declared: boolean;
}

/** A header name as field names compare: lower case, without spaces and underscores (as column-mapping). */
const keyOf = (name: string) => name.toLowerCase().replace(/[\s_]+/g, '');

/** Shorter keys than this are never near by spelling alone: `id` is one letter from `age`'s neighbours. */
const MIN_SPELLING_KEY = 4;

/**
 * The field a column name is near: an alias of it, or within a quarter of its letters of the field's
 * name or an alias (`homeownr`, `Net Anual Income`); undefined when none is.
 */
export function nearField(name: string, fields: readonly ContractField[]): ContractField | undefined {
  const key = keyOf(name);
  const candidates = fields.map((field) => ({
    field,
    keys: [field.name, ...(FIELD_ALIASES[field.name] ?? [])].map(keyOf),
  }));
  const alias = candidates.find(({ keys }) => keys.slice(1).includes(key));
  if (alias !== undefined) return alias.field;
  if (key.length < MIN_SPELLING_KEY) return undefined;
  let best: { field: ContractField; distance: number } | undefined;
  for (const { field, keys } of candidates) {
    for (const other of keys) {
      const d = distance(key, other);
      if (d <= Math.max(1, Math.floor(other.length / 4)) && (best === undefined || d < best.distance))
        best = { field, distance: d };
    }
  }
  return best?.field;
}

/**
 * Accounts for every column of `header`: `bound` maps the columns that supply a field to it. Stops the
 * job, in one message, on every unused column near a field no other column supplies, unless listed in
 * `passThrough`; a `passThrough` name the header lacks, or that supplies a field, is refused too.
 */
export function accountForColumns(
  header: readonly string[],
  bound: ReadonlyMap<string, ContractField>,
  fields: readonly ContractField[],
  passThrough: readonly string[],
): ColumnUse[] {
  const declared = new Set(passThrough);
  for (const name of declared) {
    if (!header.includes(name))
      throw new Error(`--pass-through names "${name}", but the input has no such column`);
    if (bound.has(name))
      throw new Error(
        `--pass-through names "${name}", which supplies ${bound.get(name)!.name}; a column is used or passed through, not both`,
      );
  }
  const supplied = new Set([...bound.values()].map((field) => field.name));
  const free = fields.filter((field) => !supplied.has(field.name));
  const misses: { column: string; field: ContractField }[] = [];
  const uses = header.map((column): ColumnUse => {
    const field = bound.get(column);
    if (field !== undefined) return { column, field: field.name, declared: false };
    if (declared.has(column)) return { column, field: null, declared: true };
    const near = nearField(column, free);
    if (near !== undefined) misses.push({ column, field: near });
    return { column, field: null, declared: false };
  });
  if (misses.length > 0) throw new Error(nearMissMessage(misses));
  return uses;
}

function nearMissMessage(misses: readonly { column: string; field: ContractField }[]): string {
  const named = misses.map(({ column, field }) => `"${column}" (${field.name}?)`).join(', ');
  const map = Object.fromEntries(misses.map(({ column, field }) => [column, field.name]));
  const budget = misses.filter(({ field }) => field.section === 'budget').map(({ field }) => field.name);
  const annual =
    budget.length === 0
      ? ''
      : ` (${budget.join(', ')}: US dollars a year; convert monthly amounts before scoring)`;
  return (
    `the input has columns whose names are close to a field but name none, so they would be passed through unused and each row scored as if the field were absent: ${named}. ` +
    `To use them, give --map a file with ${JSON.stringify({ columns: map })}${annual}; ` +
    `to keep them unused, --pass-through ${misses.map(({ column }) => column).join(',')}`
  );
}
