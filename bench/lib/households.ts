/**
 * Request bodies for in-process benchmarks, made the way the batch job makes them: generated households
 * (`outlay sample`) read through the job's own CSV source and row-to-request mapping.
 */

import { DEFAULT_COLUMN_MAP, planRequest } from '../../jobs/batch/io/column-mapping.js';
import { openCsvSource } from '../../jobs/batch/io/csv-source.js';
import { cellAt } from '../../jobs/batch/io/input-source.js';
import { buildRequest } from '../../jobs/batch/io/row-request.js';

export async function readRequestBodies(csvPath: string): Promise<unknown[]> {
  const source = await openCsvSource(csvPath, 10_000);
  try {
    const plan = planRequest(source.header, source.kinds, DEFAULT_COLUMN_MAP);
    const bodies: unknown[] = [];
    for await (const batch of source.batches()) {
      for (let row = 0; row < batch.length; row++) {
        const request = buildRequest(plan, (column) => cellAt(batch.cells, row, column));
        if (request.errors.length === 0) bodies.push(request.body);
      }
    }
    return bodies;
  } finally {
    await source.close();
  }
}
