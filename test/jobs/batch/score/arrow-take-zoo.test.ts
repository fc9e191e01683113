/** takeRows over every Arrow type (nested and view ones included), sliced like the source cuts batches. */
import { type RecordBatch, Table, tableFromIPC, tableToIPC, Vector } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { takeRows } from '../../../../jobs/batch/score/arrow-take.js';
import { cellJson, viewColumns, zooTable } from './arrow-zoo.js';

const ROWS = 24;

describe('takeRows over the Arrow type zoo', () => {
  const batch = zooTable(ROWS, viewColumns(ROWS)).batches[0]!;

  it('schema: the zoo covers every type it names', () => {
    expect(batch.schema.fields.map((f) => String(f.type))).toMatchSnapshot();
  });

  it('property: taken rows of any type hold the same values and nulls as the rows read one by one, and survive an IPC round trip', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: ROWS - 1 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (start, picks) => {
          const slice: RecordBatch = batch.slice(start, ROWS);
          const rows = Int32Array.from(picks, (p) => p % Math.max(1, slice.numRows));
          if (slice.numRows === 0) return;
          const taken: Record<string, Vector> = {};
          for (const field of slice.schema.fields) {
            const vector = slice.getChild(field.name)!;
            const column = new Vector([takeRows(vector, rows)]);
            expect(column.nullCount, field.name).toBe(
              Array.from(rows).filter((row) => vector.get(row) === null).length,
            );
            expect(
              Array.from({ length: rows.length }, (_, i) => cellJson(column.get(i))),
              field.name,
            ).toEqual(Array.from(rows, (row) => cellJson(vector.get(row))));
            taken[field.name] = column;
          }
          const back = tableFromIPC(tableToIPC(new Table(taken), 'file'));
          for (const field of slice.schema.fields)
            expect([...back.getChild(field.name)!].map(cellJson), field.name).toEqual(
              Array.from(rows, (row) => cellJson(slice.getChild(field.name)!.get(row))),
            );
        },
      ),
      { numRuns: 60 },
    );
  });
});
