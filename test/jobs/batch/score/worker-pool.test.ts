/** The worker pool's threads: started from the dist/ build, as `outlay score` starts them. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COLUMN_MAP, planRequest } from '../../../../jobs/batch/io/column-mapping.js';
import { loadEngineFrom } from '../../../../jobs/batch/score/engine-spec.js';
import { makeLayout } from '../../../../jobs/batch/score/layout.js';
import { InProcessScorer } from '../../../../jobs/batch/score/local-scorer.js';
import type { WorkBatch } from '../../../../jobs/batch/score/work.js';
import { WORKER_RESOURCE_LIMITS, WorkerPool } from '../../../../jobs/batch/score/worker-pool.js';
import { PACKAGE_ROOT } from '../../../../src/paths.js';
import { referencePathOf, tempDir, writeTestArtifact } from './helpers.js';

async function testModelOptions() {
  const modelPath = await writeTestArtifact(await tempDir('pool'));
  return { modelPath, scoreReferencePath: referencePathOf(modelPath), scoreKey: 'OUTLAY' };
}

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
  options: await testModelOptions(),
});

describe('worker pool', () => {
  it('unit: every scoring worker runs under the heap limits sized to its live set', async () => {
    const pool = await WorkerPool.start(2, { engine: await engineSpec(), layout });
    try {
      const { maxOldGenerationSizeMb, maxYoungGenerationSizeMb } = WORKER_RESOURCE_LIMITS;
      const limits = await pool.heapLimitsMb();
      expect(limits).toHaveLength(2);
      // V8's limit is the old generation plus the young generation with its copy reserve (1.5× in Node 20);
      // without limits a worker would get the process default of gigabytes.
      for (const limit of limits) {
        expect(limit).toBeGreaterThanOrEqual(maxOldGenerationSizeMb);
        expect(limit).toBeLessThanOrEqual(maxOldGenerationSizeMb + 2 * maxYoungGenerationSizeMb);
      }
    } finally {
      await pool.close();
    }
  });

  it('scenario: one worker and the main thread, six batches sent at once once the worker is ready → one batch more in flight than the worker holds, results in order and equal to the main thread alone', async () => {
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
      // Until then the main thread would score them all.
      await pool.heapLimitsMb();
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

  /**
   * An engine module whose threads differ: the workers' engine fails to load or reports another model (as
   * if the model file had been replaced while the threads started), or the main thread's loads slowly.
   */
  type Divergence = 'worker fails' | 'worker loads another model' | 'main thread slow';
  const divergingEngine = async (divergence: Divergence) => {
    const dir = await tempDir('diverging-engine');
    const module = join(dir, 'engine.mjs');
    const real = pathToFileURL(join(PACKAGE_ROOT, 'dist', 'src', 'runtime', 'load-engine.js')).href;
    await writeFile(
      module,
      `import { isMainThread } from 'node:worker_threads';
import { loadEngine as load } from ${JSON.stringify(real)};
const divergence = ${JSON.stringify(divergence)};
export async function loadEngine(options) {
  if (isMainThread) {
    if (divergence === 'main thread slow') await new Promise((resolve) => setTimeout(resolve, 1500));
    return load(options);
  }
  if (divergence === 'worker fails') throw new Error('the worker could not load its engine');
  const engine = await load(options);
  return divergence === 'worker loads another model' ? { ...engine, modelVersion: 'other-model' } : engine;
}
`,
    );
    return { ...(await engineSpec()), module: pathToFileURL(module).href };
  };
  const oneRow: WorkBatch = {
    seq: 0,
    rowNumbers: Int32Array.from([1]),
    cells: { kind: 'rows', rows: [['40000', '10001']] },
  };

  it('scenario: a worker whose engine fails to load while the main thread scores → the next batch fails with its error', async () => {
    const pool = await WorkerPool.start(1, { engine: await divergingEngine('worker fails'), layout }, true);
    try {
      await expect(pool.heapLimitsMb()).rejects.toThrow('the worker could not load its engine');
      await expect(pool.score(oneRow)).rejects.toThrow('the worker could not load its engine');
    } finally {
      await pool.close();
    }
  });

  it('scenario: a worker that loaded another model than the main thread → the next batch fails naming both', async () => {
    const engine = await divergingEngine('worker loads another model');
    const pool = await WorkerPool.start(1, { engine, layout }, true);
    try {
      const expected = (await loadEngineFrom(engine)).modelVersion;
      const message = `a scoring worker loaded model other-model, the main thread ${expected}`;
      await pool.heapLimitsMb();
      await expect(pool.score(oneRow)).rejects.toThrow(message);
    } finally {
      await pool.close();
    }
  });

  it('scenario: a worker ready before the main thread has loaded its engine → the pool sees it ready (its first message is not lost)', async () => {
    const pool = await WorkerPool.start(
      1,
      { engine: await divergingEngine('main thread slow'), layout },
      true,
    );
    try {
      expect(await pool.heapLimitsMb()).toHaveLength(1);
      expect((await pool.score(oneRow)).scored).toBe(1);
    } finally {
      await pool.close();
    }
  });
});
