/** Reading Arrow text cells from their UTF-8 buffers. */
import { describe, expect, it } from 'vitest';
import { type TypedColumn, typedCellAt } from '../../../../jobs/batch/io/typed-columns.js';

function textColumn(cells: (string | null)[]): TypedColumn {
  const bytes = cells.map((cell) => new TextEncoder().encode(cell ?? ''));
  const valueOffsets = new Int32Array(cells.length + 1);
  bytes.forEach((cell, i) => {
    valueOffsets[i + 1] = valueOffsets[i]! + cell.byteLength;
  });
  const data = new Uint8Array(valueOffsets[cells.length]!);
  bytes.forEach((cell, i) => {
    data.set(cell, valueOffsets[i]!);
  });
  const nulls = Uint8Array.from(cells, (cell) => (cell === null ? 1 : 0));
  return { kind: 'text', valueOffsets, data, nulls };
}

describe('typedCellAt on text columns', () => {
  it('unit: short ASCII, non-ASCII, long, empty and null cells → the cell as written (null for null)', () => {
    const cells = ['02134', 'São Paulo', 'Zürich', 'a longer cell than sixteen bytes', '', null, '😀'];
    const column = textColumn(cells);
    expect(cells.map((_, row) => typedCellAt(column, row))).toEqual(cells);
  });
});
