/** The hand-written CSV encoders against csv-stringify (the reference the issue names) and csv-parse. */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvBytes } from '../../../../jobs/batch/io/csv-bytes.js';
import { csvRecord } from '../../../../jobs/batch/io/csv-text.js';

const field = fc.oneof(
  fc.string(),
  fc.constantFrom('', ',', '"', '\n', '\r\n', 'a,"b"', ' x '),
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
          const out = new CsvBytes(4);
          out.field(text);
          for (const n of numbers) {
            out.comma();
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
          const out = new CsvBytes(4);
          out.integer(n);
          expect(Buffer.from(out.take()).toString('utf8')).toBe(String(n));
        },
      ),
      { numRuns: 5_000 },
    );
  });
});
