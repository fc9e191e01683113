/** Column maps and strict cell reading: what is accepted, and the message for what is not. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_COLUMN_MAP, parseColumnMap, planRequest } from '../../../../jobs/batch/io/column-mapping.js';
import { BatchRequests, buildRequest, rowErrors } from '../../../../jobs/batch/io/row-request.js';

const plan = planRequest(
  ['net_annual_income', 'zip', 'age', 'is_homeowner', 'savings'],
  [],
  DEFAULT_COLUMN_MAP,
);
const request = (cells: string[]) => buildRequest(plan, (c) => cells[c]);

describe('column mapping and cell reading', () => {
  it.each([
    ['50000', 50000],
    ['50000.5', 50000.5],
    ['-5', -5],
    ['007', 7],
  ])('unit: number text %s → %s', (text, value) => {
    expect(request([text, '10001']).body.demographics.net_annual_income).toBe(value);
  });

  it.each(['5e4', '1,000', '$100', ' 100', 'abc', '.5', '1.'])(
    'unit: number text "%s" → error at the field path',
    (text) => {
      expect(request([text, '10001']).errors).toEqual([
        { path: '/demographics/net_annual_income', message: expect.stringMatching(/^must be a number/) },
      ]);
    },
  );

  it('unit: empty cells are not given; 0 is a given zero; fixed expenses go under budget', () => {
    expect(request(['50000', '10001', '', '', '']).body).toEqual({
      demographics: { net_annual_income: 50000, zip: '10001' },
    });
    expect(request(['50000', '10001', '', 'false', '0']).body).toEqual({
      demographics: { net_annual_income: 50000, zip: '10001', is_homeowner: false },
      budget: { savings: 0 },
    });
  });

  it("unit: batch requests of a loaded batch, row after row → the fields of each row's fresh body, nothing left from the row before", () => {
    const requests = new BatchRequests(plan);
    // The contract counts a field present as undefined as not given.
    const given = (fields: Record<string, unknown> | undefined) =>
      Object.fromEntries(Object.entries(fields ?? {}).filter(([, value]) => value !== undefined));
    const rows = [
      ['50000', '10001', '40', 'true', '100'],
      ['60000', '02134', '', '', ''],
      ['70000', '94110', '', 'false', '0'],
    ];
    requests.load({ kind: 'rows', rows }, rows.length, 5);
    rows.forEach((row, i) => {
      const valid = requests.validated(i);
      const fresh = request(row).body;
      expect(given(valid?.demographics)).toEqual(fresh.demographics);
      expect(given(valid?.budget)).toEqual(fresh.budget ?? {});
    });
  });

  it('unit: batch rows with an unreadable cell, too few cells or a refused value → no request (the fresh body says why); the rest still read', () => {
    const rows = [
      ['50000', '10001', 'forty', '', ''],
      ['50000', '10001'],
      ['50000', '1001a', '40', '', ''],
      ['50000', '10001', '40', '', ''],
    ];
    const requests = new BatchRequests(plan);
    requests.load({ kind: 'rows', rows }, rows.length, 5);
    expect(rows.map((_, i) => requests.validated(i) === undefined)).toEqual([true, true, true, false]);
  });

  it('unit: a household_type column is read as text and checked against household_members', () => {
    const typed = planRequest(
      ['net_annual_income', 'zip', 'household_members', 'household_type'],
      [],
      DEFAULT_COLUMN_MAP,
    );
    const row = (cells: string[]) => buildRequest(typed, (c) => cells[c]);
    expect(row(['50000', '10001', '3', 'one_parent']).body.demographics).toEqual({
      net_annual_income: 50000,
      zip: '10001',
      household_members: 3,
      household_type: 'one_parent',
    });
    expect(rowErrors(row(['50000', '10001', '1', 'married_couple']))).toEqual([
      {
        path: '/demographics/household_type',
        message:
          'must be "single_or_other" when household_members is 1 ("married_couple" needs at least 2 members)',
      },
    ]);
  });

  it.each([
    [{ columns: { a: 'nope' } }, /must name a contract field/],
    [{ columns: { a: 'zip', b: 'zip' } }, /maps two input columns to "zip"/],
    [{ booleans: { true: ['Y'], false: ['Y'] } }, /listed as both true and false/],
    [{ colums: {} }, /unknown key "colums"/],
  ])('unit: bad map %j → clear error', (json, message) => {
    expect(() => parseColumnMap(json, '--map m.json')).toThrow(message);
  });

  it('unit: a mapped column missing from the input, or two columns for one field → job-level error', () => {
    expect(() =>
      planRequest(
        ['zip', 'net_annual_income'],
        [],
        parseColumnMap({ columns: { NET: 'net_annual_income' } }, 'm'),
      ),
    ).toThrow(/renames "NET", but the input has no such column/);
    expect(() =>
      planRequest(
        ['zip', 'NET', 'net_annual_income'],
        [],
        parseColumnMap({ columns: { NET: 'net_annual_income' } }, 'm'),
      ),
    ).toThrow(/both supply net_annual_income/);
  });

  it.each([
    [['Net Annual Income', 'ZIP', 'Is Homeowner']],
    [['NET_ANNUAL_INCOME', 'Zip', 'is homeowner']],
    [['net annual_income', ' zip ', 'IsHomeowner']],
  ])(
    'unit: headers %j → bound to the contract fields regardless of case, spaces and underscores',
    (header) => {
      const bound = planRequest(header, [], DEFAULT_COLUMN_MAP).bindings.map((b) => [b.field.name, b.column]);
      expect(bound).toEqual([
        ['net_annual_income', 0],
        ['zip', 1],
        ['is_homeowner', 2],
      ]);
    },
  );

  it('unit: two headers differing only in case both supply one field → job-level error naming both', () => {
    expect(() =>
      planRequest(['zip', 'Net Annual Income', 'net_annual_income'], [], DEFAULT_COLUMN_MAP),
    ).toThrow(/columns "Net Annual Income" and "net_annual_income" both supply net_annual_income/);
  });

  it('unit: every required field missing → one error naming all of them, with the closest header when near', () => {
    expect(() => planRequest(['Net Anual Incom', 'postcode', 'age'], [], DEFAULT_COLUMN_MAP)).toThrow(
      'the input has no columns for net_annual_income (closest column: "Net Anual Incom"), zip, which every request needs',
    );
    expect(() => planRequest(['zip', 'income'], [], DEFAULT_COLUMN_MAP)).toThrow(
      /^the input has no column for net_annual_income, which/,
    );
  });
});
