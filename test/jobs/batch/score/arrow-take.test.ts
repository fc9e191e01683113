/** Rows taken from Arrow input columns against reading the same rows value by value (the reference). */
import {
  Bool,
  Float64,
  Int32,
  Int64,
  type RecordBatch,
  Table,
  Utf8,
  Vector,
  vectorFromArray,
} from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { takeRows } from '../../../../jobs/batch/score/arrow-take.js';

const columns = {
  text: vectorFromArray(['a', null, 'é家', '', 'x,"y"', null, 'long text here', 'z', 'q', null], new Utf8()),
  float: vectorFromArray([1.5, null, -2, 0, 3e9, null, 7, 8.25, 9, 10], new Float64()),
  int: vectorFromArray([1, 2, null, 4, 5, 6, null, 8, 9, 10], new Int32()),
  bool: vectorFromArray([true, false, null, true, true, false, null, false, true, true], new Bool()),
  bigint: vectorFromArray([1n, 2n, null, 4n, 5n, 6n, 7n, null, 9n, 10n], new Int64()),
};

describe('takeRows', () => {
  it('property: the taken rows of a batch slice hold the same values and nulls as the rows read one by one', () => {
    const batch = new Table(columns).batches[0]!;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9 }), fc.array(fc.nat(), { maxLength: 12 }), (start, picks) => {
        // A slice like the source's cut of a large writer batch: offsets that do not start at 0.
        const slice: RecordBatch = batch.slice(start, 10);
        const rows = Int32Array.from(picks, (p) => p % slice.numRows);
        for (let c = 0; c < slice.numCols; c++) {
          const vector = slice.getChildAt(c)!;
          const taken = new Vector([takeRows(vector, rows)]);
          expect([...taken]).toEqual(Array.from(rows, (row) => vector.get(row)));
          expect(taken.nullCount).toBe(Array.from(rows).filter((row) => vector.get(row) === null).length);
        }
      }),
    );
  });
});
