/** The worker pool's threads: started from the dist/ build, as `outlay score` starts them. */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeLayout } from '../../../jobs/score/layout.js';
import { WORKER_RESOURCE_LIMITS, WorkerPool } from '../../../jobs/score/worker-pool.js';
import { DEFAULT_COLUMN_MAP, planRequest } from '../../../src/io/column-mapping.js';
import { PACKAGE_ROOT } from '../../../src/paths.js';
import { tempDir, writeTestArtifact } from './helpers.js';

describe('worker pool', () => {
  it('unit: every scoring worker runs under the heap limits sized to its live set', async () => {
    const header = ['net_annual_income', 'zip'];
    const layout = makeLayout(
      header,
      planRequest(header, ['text', 'text'], DEFAULT_COLUMN_MAP),
      'csv',
      'OUTLAY',
      [],
    );
    const engine = {
      module: pathToFileURL(join(PACKAGE_ROOT, 'dist', 'src', 'runtime', 'load-engine.js')).href,
      options: { modelPath: await writeTestArtifact(await tempDir('pool')), scoreKey: 'OUTLAY' },
    };
    const pool = await WorkerPool.start(2, { engine, layout });
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
});
