/** Utf8 columns built from typed buffers against apache-arrow's own builder (the reference). */
import { makeData, Utf8, Vector, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Utf8ColumnBuilder } from '../../../../jobs/batch/io/utf8-column.js';

describe('Utf8ColumnBuilder', () => {
  it('property: the buffers read back as the strings and nulls added, as vectorFromArray builds them', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constant(''))), {
          maxLength: 40,
        }),
        fc.nat({ max: 8 }),
        (values, spare) => {
          // Capacity above the rows added: a batch with rejects finishes with fewer rows than it reserved.
          const builder = new Utf8ColumnBuilder(values.length + spare);
          for (const value of values) builder.add(value);
          const buffers = builder.finish();
          const built = new Vector([makeData({ type: new Utf8(), ...buffers })]);
          expect([...built]).toEqual(values);
          expect(built.nullCount).toBe(values.filter((v) => v === null).length);
          expect([...built]).toEqual([...vectorFromArray(values, new Utf8())]);
        },
      ),
    );
  });
});
