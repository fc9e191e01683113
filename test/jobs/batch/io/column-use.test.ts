import { describe, expect, it } from 'vitest';
import { CONTRACT_FIELDS, type ContractField } from '../../../../jobs/batch/io/column-mapping.js';
import { accountForColumns, FIELD_ALIASES, nearField } from '../../../../jobs/batch/io/column-use.js';

const field = (name: string): ContractField => CONTRACT_FIELDS.find((f) => f.name === name)!;
const bound = (...names: string[]) => new Map(names.map((name) => [name, field(name)]));

describe('nearField', () => {
  it.each([
    ['homeowner', 'is_homeowner'],
    ['Home Ownership', 'is_homeowner'],
    ['household_size', 'household_members'],
    ['HH_SIZE', 'household_members'],
    ['rent', 'mortgage_and_rent'],
    ['zip_code', 'zip'],
    ['Postal Code', 'zip'],
    ['take_home', 'net_annual_income'],
    ['annual_inc', 'gross_annual_income'],
    ['Net Anual Incom', 'net_annual_income'],
    ['homeownr', 'is_homeowner'],
  ])('an alias or a near spelling: "%s" → %s', (column, expected) => {
    expect(nearField(column, CONTRACT_FIELDS)?.name).toBe(expected);
  });

  it.each(['id', 'note', 'customer_id', 'name', 'city', 'branch', 'application_date'])(
    'a name near no field: "%s" → undefined',
    (column) => {
      expect(nearField(column, CONTRACT_FIELDS)).toBeUndefined();
    },
  );

  it('every alias names a contract field', () => {
    for (const name of Object.keys(FIELD_ALIASES)) expect(field(name), name).toBeDefined();
  });
});

describe('accountForColumns', () => {
  const header = ['zip', 'net_annual_income', 'homeowner', 'household_size', 'rent', 'id'];

  it('near-miss columns → one error naming each field, the --map line and the --pass-through flag', () => {
    expect(() => accountForColumns(header, bound('zip', 'net_annual_income'), CONTRACT_FIELDS, [])).toThrow(
      /"homeowner" \(is_homeowner\?\), "household_size" \(household_members\?\), "rent" \(mortgage_and_rent\?\).*--map a file with \{"columns":\{"homeowner":"is_homeowner","household_size":"household_members","rent":"mortgage_and_rent"\}\}.*--pass-through homeowner,household_size,rent/,
    );
  });

  it('declared pass-through → every column accounted for: used as a field, or passed through', () => {
    const uses = accountForColumns(header, bound('zip', 'net_annual_income'), CONTRACT_FIELDS, [
      'homeowner',
      'household_size',
      'rent',
    ]);
    expect(uses).toEqual([
      { column: 'zip', field: 'zip', declared: false },
      { column: 'net_annual_income', field: 'net_annual_income', declared: false },
      { column: 'homeowner', field: null, declared: true },
      { column: 'household_size', field: null, declared: true },
      { column: 'rent', field: null, declared: true },
      { column: 'id', field: null, declared: false },
    ]);
  });

  it('a near-miss of a field another column already supplies → passed through, not refused', () => {
    const uses = accountForColumns(
      ['zip', 'zip_code', 'net_annual_income'],
      bound('zip', 'net_annual_income'),
      CONTRACT_FIELDS,
      [],
    );
    expect(uses[1]).toEqual({ column: 'zip_code', field: null, declared: false });
  });

  it('--pass-through of a missing or a used column → refused, naming it', () => {
    const fields = bound('zip', 'net_annual_income');
    expect(() => accountForColumns(header, fields, CONTRACT_FIELDS, ['nope'])).toThrow(
      /"nope", but the input has no such column/,
    );
    expect(() => accountForColumns(header, fields, CONTRACT_FIELDS, ['zip'])).toThrow(
      /"zip", which supplies zip/,
    );
  });
});
