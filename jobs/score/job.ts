/**
 * `outlay score` as a batch job, in named steps: read the input (./input.ts) → open the outputs, fresh or
 * resumed (./outputs.ts) → select this run's rows (./selection.ts) → score in parallel, write in input order
 * (./pipeline.ts, ./writer.ts) → stage the summary and report, and publish everything together
 * (./publish.ts).
 */
import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Logger } from 'pino';
import { type ColumnMap, planRequest } from '../../src/io/column-mapping.js';
import type { InputSource } from '../../src/io/input-source.js';
import { SummaryBuilder, type SummaryMeta } from '../../src/report/summary.js';
import { fingerprintOf, matchingCheckpoint } from './checkpoint.js';
import { inputFormatOf, openInput, outputNameOf } from './input.js';
import { makeLayout, type OutputFormat, type OutputLayout } from './layout.js';
import {
  createOutputs,
  type JobOutputs,
  type OpenedOutputs,
  type OutputPaths,
  outputPathsOf,
  releaseOutputs,
  reopenOutputs,
  replayOutputs,
} from './outputs.js';
import { scoreInOrder } from './pipeline.js';
import { createProgress } from './progress.js';
import { publishOutputs, type StagedReport, stageOutputs } from './publish.js';
import type { BatchScorer } from './scorer.js';
import { type Shard, selectRows } from './selection.js';
import { BatchWriter } from './writer.js';

export { outputNameOf } from './input.js';
export type { Shard } from './selection.js';

export interface ScoreJobOptions {
  readonly input: string;
  readonly outDir: string;
  readonly format: OutputFormat | undefined;
  readonly shard: Shard | null;
  readonly groupBy: readonly string[];
  readonly mapFile: string | undefined;
  readonly resume: boolean;
  readonly progressBar: boolean;
  readonly batchRows: number;
  readonly scoreKey: string;
  readonly logger: Logger;
  /** Starts the scorer once the output layout is known. */
  readonly startScorer: (layout: OutputLayout) => Promise<BatchScorer>;
  /** How often a --resume job makes its progress durable. */
  readonly checkpointIntervalMs?: number;
}

export interface ScoreJobResult {
  readonly rowsIn: number;
  readonly rowsScored: number;
  readonly rowsRejected: number;
  readonly files: { scored: string; rejects: string; summary: string; report: string };
}

const CHECKPOINT_INTERVAL_MS = 1000;

/** What a run has set up, for its steps to share; the scorer and outputs are held until released. */
interface Run {
  readonly options: ScoreJobOptions;
  readonly startedAt: Date;
  readonly name: string;
  readonly paths: OutputPaths;
  readonly source: InputSource;
  readonly map: ColumnMap;
  scorer?: BatchScorer | undefined;
  outputs?: JobOutputs | undefined;
}

/** The figures a finished scoring pass hands to the summary. */
interface Scored {
  readonly writer: BatchWriter;
  readonly modelVersion: string;
  readonly engineKind: BatchScorer['engineKind'];
  readonly engineReadyMs: number;
  readonly scoringMs: number;
}

export async function runScoreJob(options: ScoreJobOptions): Promise<ScoreJobResult> {
  const startedAt = new Date();
  const inputFormat = inputFormatOf(options.input);
  const format = options.format ?? inputFormat;
  if (options.resume && format === 'arrow') {
    throw new Error(
      '--resume needs CSV output (--format csv): an Arrow file cannot be appended to after a restart',
    );
  }
  const { source, map } = await openInput(options.input, inputFormat, options.mapFile, options.batchRows);
  const name = outputNameOf(options.input);
  const run: Run = {
    options,
    startedAt,
    name,
    paths: outputPathsOf(options.outDir, name, format),
    source,
    map,
  };
  try {
    const summary = new SummaryBuilder({ groupBy: options.groupBy });
    // The builder's columns, without repeats: the encoder's group columns must be in its order.
    const plan = planRequest(source.header, source.kinds, map);
    const layout = makeLayout(source.header, plan, format, options.scoreKey, summary.groupBy);
    await mkdir(options.outDir, { recursive: true });
    const scored = await scoreAll(run, layout, summary);
    const report = await stageOutputs(run.outputs!, options.outDir, name, () =>
      summary.finish(summaryMeta(run, scored)),
    );
    await publishOutputs(run.outputs!, report, run.paths.checkpoint);
    return resultOf(run, scored.writer, report);
  } catch (error) {
    if (run.outputs !== undefined) await releaseOutputs(run.outputs, options.resume);
    throw error;
  } finally {
    await run.scorer?.close();
    await source.close();
  }
}

/**
 * Starts the scorer, opens the outputs (resuming when a matching checkpoint says so), scores every selected
 * row and closes the scorer. The scorer starts first so the checkpoint can be tied to its model: resuming
 * under another model would mix two models' numbers in one file.
 */
async function scoreAll(run: Run, layout: OutputLayout, summary: SummaryBuilder): Promise<Scored> {
  const { options, paths, source } = run;
  const scoringStarted = performance.now();
  const scorer = await options.startScorer(layout);
  run.scorer = scorer;
  const engineReadyMs = performance.now() - scoringStarted;
  const fingerprint = await fingerprintOf(options.input, {
    format: layout.format,
    shard: options.shard,
    groupBy: options.groupBy,
    map: run.map,
    scoreKey: options.scoreKey,
    modelVersion: scorer.modelVersion,
  });
  const opened = await openOutputs(run, layout, summary, fingerprint);
  const progress = createProgress({ bar: options.progressBar, logger: options.logger });
  const checkpointing = options.resume
    ? {
        path: paths.checkpoint,
        fingerprint,
        intervalMs: options.checkpointIntervalMs ?? CHECKPOINT_INTERVAL_MS,
      }
    : null;
  const writer = new BatchWriter(opened, summary, progress, source, checkpointing);
  const resumeAfter = opened.rowsDone;
  await scoreInOrder(source, scorer, (batch) => selectRows(batch, options.shard, resumeAfter), writer);
  progress.done();
  const scoringMs = performance.now() - scoringStarted;
  // Workers (isolates, engines, heaps) go before the summary is expanded into sorted lists, the job's
  // largest main-thread allocation: holding both was the peak RSS of long runs.
  const { modelVersion, engineKind } = scorer;
  run.scorer = undefined;
  await scorer.close();
  return { writer, modelVersion, engineKind, engineReadyMs, scoringMs };
}

async function openOutputs(
  run: Run,
  layout: OutputLayout,
  summary: SummaryBuilder,
  fingerprint: string,
): Promise<OpenedOutputs> {
  const { options, paths } = run;
  const resumed = options.resume
    ? await matchingCheckpoint(paths.checkpoint, fingerprint, options.logger)
    : undefined;
  if (resumed === undefined) {
    const created = await createOutputs(paths, layout, run.source.arrowFields ?? null);
    run.outputs = created.outputs;
    return created;
  }
  // Held before the replay, so that a failure in it still releases the files.
  run.outputs = await reopenOutputs(paths, resumed);
  return replayOutputs(run.outputs, paths, resumed, layout, summary, options.logger);
}

function summaryMeta(run: Run, scored: Scored): SummaryMeta {
  const { options, startedAt } = run;
  const finishedAt = new Date();
  return {
    input: options.input === '-' ? '-' : basename(options.input),
    shard: options.shard,
    modelVersion: scored.modelVersion,
    engine: scored.engineKind,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    timings: {
      engineReadyMs: Math.round(scored.engineReadyMs),
      scoringMs: Math.round(scored.scoringMs),
      totalMs: finishedAt.getTime() - startedAt.getTime(),
    },
  };
}

function resultOf(run: Run, writer: BatchWriter, report: StagedReport): ScoreJobResult {
  return {
    rowsIn: writer.rowsScored + writer.rowsRejected,
    rowsScored: writer.rowsScored,
    rowsRejected: writer.rowsRejected,
    files: {
      scored: run.paths.scored,
      rejects: run.paths.rejects,
      summary: report.paths.summaryPath,
      report: report.paths.reportPath,
    },
  };
}
