/**
 * A `--resume` run must not append rows scored by one model to rows scored by another. The job is
 * interrupted (its scorer fails after a few checkpointed batches, as a kill would leave it) and resumed with
 * a scorer reporting the same or another model version; a changed model must mean starting over.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_MODULE, loadEngineFrom } from '../../jobs/batch/score/engine-spec.js';
import { runScoreJob } from '../../jobs/batch/score/job.js';
import type { OutputLayout } from '../../jobs/batch/score/layout.js';
import { InProcessScorer } from '../../jobs/batch/score/local-scorer.js';
import type { BatchScorer } from '../../jobs/batch/score/scorer.js';
import type { WorkBatch } from '../../jobs/batch/score/work.js';
import { scoreJobOptions } from '../jobs/batch/score/helpers.js';
import { writeSample } from './support/outlay-cli.js';

const ROWS = 3_000;
const BATCH_ROWS = 500;
const SCORE_KEY = 'OUTLAY';

/** The real engine under a stated model version, counting the rows it is asked for; can fail like a crash. */
class VersionedScorer implements BatchScorer {
  readonly engineKind = 'local';
  rowsScored = 0;
  private batches = 0;

  constructor(
    private readonly inner: BatchScorer,
    readonly modelVersion: string,
    private readonly failAfterBatches = Number.POSITIVE_INFINITY,
  ) {}

  get parallelBatches(): number {
    return this.inner.parallelBatches;
  }

  get priceYear(): number | undefined {
    return this.inner.priceYear;
  }

  score(batch: WorkBatch) {
    if (this.batches++ >= this.failAfterBatches) return Promise.reject(new Error('simulated crash'));
    this.rowsScored += batch.rowNumbers.length;
    return this.inner.score(batch);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

let dir: string;
let input: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'outlay-reliability-model-change-'));
  input = join(dir, 'households.csv');
  await writeSample(input, { rows: ROWS, seed: 5 });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function runJob(outDir: string, scorerOf: (layout: OutputLayout) => Promise<VersionedScorer>) {
  return runScoreJob(
    scoreJobOptions(input, outDir, scorerOf, {
      resume: true,
      batchRows: BATCH_ROWS,
      scoreKey: SCORE_KEY,
      checkpointIntervalMs: 0,
    }),
  );
}

const versioned = (version: string, failAfterBatches?: number) => async (layout: OutputLayout) =>
  new VersionedScorer(
    new InProcessScorer(
      await loadEngineFrom({ module: DEFAULT_ENGINE_MODULE, options: { scoreKey: SCORE_KEY } }),
      layout,
    ),
    version,
    failAfterBatches,
  );

/** Interrupts a run with model `first` after three batches, resumes with model `second`; rows the resume scored. */
async function interruptAndResume(outDir: string, first: string, second: string): Promise<number> {
  await expect(runJob(outDir, versioned(first, 3))).rejects.toThrow('simulated crash');
  expect(existsSync(join(outDir, '.households.checkpoint.json'))).toBe(true);
  let resumed: VersionedScorer | undefined;
  const result = await runJob(outDir, async (layout) => {
    resumed = await versioned(second)(layout);
    return resumed;
  });
  expect(result.rowsIn).toBe(ROWS);
  return resumed!.rowsScored;
}

describe('outlay score --resume across a model change', () => {
  it('when resumed with the same model, only the rows after the checkpoint are scored again', async () => {
    expect(await interruptAndResume(join(dir, 'same'), 'model-a', 'model-a')).toBeLessThan(ROWS);
  });

  it('when resumed with another model version, starts over instead of mixing two models in one file', async () => {
    expect(await interruptAndResume(join(dir, 'changed'), 'model-a', 'model-b')).toBe(ROWS);
  });
});
