/** The hand-written CSV encoder against csv-stringify (the reference) and csv-parse, in both dialects. */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CsvBytes,
  csvHeader,
  csvReadOptions,
  csvRecord,
  excelDialect,
  readDecimal,
} from '../../../../jobs/batch/io/csv-encoding.js';

const field = fc.oneof(
  fc.string(),
  fc.constantFrom('', ',', ';', '"', '\n', '\r\n', 'a,"b"', 'A;B', ' x '),
  fc.string({ unit: 'grapheme' }),
);

describe('CSV encoding', () => {
  it('property: csvRecord equals csv-stringify byte for byte, and csv-parse reads the fields back', () => {
    fc.assert(
      fc.property(fc.array(field, { minLength: 2, maxLength: 6 }), (fields) => {
        expect(csvRecord(fields)).toBe(stringify([fields]));
        expect(parse(csvRecord(fields))).toEqual([fields]);
      }),
    );
  });

  it('property: CsvBytes writes integers and fields as csvRecord would', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -2_000_000_000, max: 2_000_000_000 })),
        field,
        (numbers, text) => {
          const out = new CsvBytes(undefined, 4);
          out.field(text);
          for (const n of numbers) {
            out.separator();
            out.integer(n);
          }
          out.endRecord();
          expect(Buffer.from(out.take()).toString('utf8')).toBe(csvRecord([text, ...numbers.map(String)]));
        },
      ),
    );
  });

  it('property: CsvBytes writes every safe integer, up to ±(2^53 − 1), as String does', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.maxSafeInteger(),
          fc.integer({ min: 0, max: 1000 }).map((d) => Number.MAX_SAFE_INTEGER - d),
          fc.integer({ min: 0, max: 1000 }).map((d) => d - Number.MAX_SAFE_INTEGER),
        ),
        (n) => {
          const out = new CsvBytes(undefined, 4);
          out.integer(n);
          expect(Buffer.from(out.take()).toString('utf8')).toBe(String(n));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('property: the `;` dialect equals csv-stringify with delimiter `;` and a BOM, and reads back', () => {
    const excel = excelDialect(';');
    fc.assert(
      fc.property(fc.array(field, { minLength: 2, maxLength: 6 }), (fields) => {
        const text = csvHeader(fields, excel);
        expect(text).toBe(stringify([fields], { delimiter: ';', bom: true }));
        expect(parse(text, csvReadOptions(excel))).toEqual([fields]);
      }),
    );
  });

  it('unit: excelDialect is `;` with decimal commas only for a `;` input, `,` with points otherwise', () => {
    expect(excelDialect(';')).toEqual({ separator: ';', bom: true, decimalMark: ',' });
    for (const input of [',', '\t', '|', undefined])
      expect(excelDialect(input)).toEqual({ separator: ',', bom: true, decimalMark: '.' });
  });

  it('property: CsvBytes writes decimals in the dialect, and readDecimal reads them back', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000, max: 10_000 }), fc.constantFrom(';', ','), (tenths, input) => {
        const dialect = excelDialect(input);
        const out = new CsvBytes(dialect, 4);
        out.decimal((tenths / 10).toFixed(1));
        out.separator();
        out.integer(tenths);
        out.endRecord();
        const [decimal, integer] = parse(Buffer.from(out.take()), { delimiter: dialect.separator })[0]!;
        expect(decimal).toBe((tenths / 10).toFixed(1).replace('.', dialect.decimalMark));
        expect(readDecimal(decimal!, dialect)).toBe(tenths / 10);
        expect(Number(integer)).toBe(tenths);
      }),
    );
  });
});
