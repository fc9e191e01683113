/** The worker pool's threads: started from the dist/ build, as `outlay score` starts them. */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadEngineFrom } from '../../../jobs/score/engine-spec.js';
import { makeLayout } from '../../../jobs/score/layout.js';
import { InProcessScorer } from '../../../jobs/score/local-scorer.js';
import type { WorkBatch } from '../../../jobs/score/work.js';
import { WORKER_RESOURCE_LIMITS, WorkerPool } from '../../../jobs/score/worker-pool.js';
import { DEFAULT_COLUMN_MAP, planRequest } from '../../../src/io/column-mapping.js';
import { PACKAGE_ROOT } from '../../../src/paths.js';
import { tempDir, writeTestArtifact } from './helpers.js';

const header = ['net_annual_income', 'zip'];
const layout = makeLayout(
  header,
  planRequest(header, ['text', 'text'], DEFAULT_COLUMN_MAP),
  'csv',
  'OUTLAY',
  [],
);
const engineSpec = async () => ({
  module: pathToFileURL(join(PACKAGE_ROOT, 'dist', 'src', 'runtime', 'load-engine.js')).href,
  options: { modelPath: await writeTestArtifact(await tempDir('pool')), scoreKey: 'OUTLAY' },
});

describe('worker pool', () => {
  it('unit: every scoring worker runs under the heap limits sized to its live set', async () => {
    const pool = await WorkerPool.start(2, { engine: await engineSpec(), layout });
    try {
      const { maxOldGenerationSizeMb, maxYoungGenerationSizeMb } = WORKER_RESOURCE_LIMITS;
      expect(pool.heapLimitsMb).toHaveLength(2);
      // V8's limit is the old generation plus the young generation with its copy reserve (1.5× in Node 20);
      // without limits a worker would get the process default of gigabytes.
      for (const limit of pool.heapLimitsMb) {
        expect(limit).toBeGreaterThanOrEqual(maxOldGenerationSizeMb);
        expect(limit).toBeLessThanOrEqual(maxOldGenerationSizeMb + 2 * maxYoungGenerationSizeMb);
      }
    } finally {
      await pool.close();
    }
  });

  it('scenario: one worker and the main thread, six batches sent at once → one batch more in flight than the worker holds, results in order and equal to the main thread alone', async () => {
    const engine = await engineSpec();
    const pool = await WorkerPool.start(1, { engine, layout }, true);
    const alone = new InProcessScorer(await loadEngineFrom(engine), layout);
    const batchOf = (seq: number): WorkBatch => ({
      seq,
      rowNumbers: Int32Array.from([1, 2]),
      cells: {
        kind: 'rows',
        rows: [
          [String(40_000 + seq), '10001'],
          ['-1', '10001'],
        ],
      },
    });
    try {
      expect(pool.parallelBatches).toBe(3);
      const results = await Promise.all(Array.from({ length: 6 }, (_, seq) => pool.score(batchOf(seq))));
      expect(results.map((result) => result.seq)).toEqual([0, 1, 2, 3, 4, 5]);
      for (const [seq, result] of results.entries()) {
        const expected = await alone.score(batchOf(seq));
        expect(Buffer.from(result.csv)).toEqual(Buffer.from(expected.csv));
        expect(Buffer.from(result.rejectsCsv)).toEqual(Buffer.from(expected.rejectsCsv));
      }
    } finally {
      await pool.close();
    }
  });
});
