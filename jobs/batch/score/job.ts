/**
 * `outlay score` as a batch job, in named steps: read the input (./input.ts) → open the outputs, fresh or
 * resumed (./outputs.ts) → select this run's rows (./selection.ts) → score in parallel, write in input order
 * (./pipeline.ts, ./writer.ts) → stage the summary and report, and publish everything together
 * (./publish.ts).
 */
import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Logger } from 'pino';
import { type ColumnMap, planRequest } from '../io/column-mapping.js';
import { DEFAULT_CSV_DIALECT, excelDialect } from '../io/csv-encoding.js';
import type { CsvOptions } from '../io/csv-source.js';
import type { InputSource, SourceBatch } from '../io/input-source.js';
import type { LineSpanReport } from '../io/line-spans.js';
import { planLoan } from '../io/loan-columns.js';
import { type Comparison, compareSummaries } from '../report/comparison.js';
import { withLineSpans } from '../report/line-spans-section.js';
import { type Summary, SummaryBuilder, type SummaryMeta } from '../report/summary.js';
import { fingerprintOf, matchingCheckpoint, removeCheckpoint } from './checkpoint.js';
import { writeColumnDictionary } from './column-dictionary.js';
import { type InterruptingSignal, JobInterrupted } from './exit-codes.js';
import { type InputOptions, inputFormatOf, openInput, outputNameOf } from './input.js';
import { digestInput, type InputDigest } from './input-digest.js';
import {
  type FileFormat,
  makeLayout,
  type OutputLayout,
  outputFormatOf,
  type ScoringOptions,
} from './layout.js';
import { lockOutputs, type OutputLock } from './lock.js';
import {
  type Compression,
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
  /** The scored file's format (default: the input's). */
  readonly format: FileFormat | undefined;
  /** The format of standard input (`-`; default CSV); a file's is read from its name. */
  readonly inputFormat?: FileFormat | undefined;
  /**
   * `--scored -`: the scored rows go to this stream (standard output) as an Arrow IPC stream, as they are
   * written, instead of to a file in `outDir`; the rejects, summary and report still go to `outDir`.
   */
  readonly scoredStream?: NodeJS.WritableStream | undefined;
  /** `--compress gzip`: the scored CSV file gzip-compressed (`.scored.csv.gz`). */
  readonly compress?: Compression;
  /** `--excel`: the CSV files written as Excel opens them in the input's locale (csv-encoding.ts). */
  readonly excel?: boolean | undefined;
  /** How a CSV input is read (default: UTF-8, delimiter read off the header). */
  readonly csv?: Omit<CsvOptions, 'gzip'>;
  readonly shard: Shard | null;
  readonly groupBy: readonly string[];
  readonly mapFile: string | undefined;
  /** `--pass-through`: columns kept unused although their names are near a field. */
  readonly passThrough?: readonly string[];
  /** `--loan-rate`: every row's loan rate, for a file with loan amounts and terms but no rate column. */
  readonly loanRate?: string | undefined;
  readonly resume: boolean;
  readonly progressBar: boolean;
  readonly batchRows: number;
  readonly scoreKey: string;
  /** The score's basis and profile (default: stated amounts, standard profile). */
  readonly scoring: ScoringOptions;
  readonly logger: Logger;
  /**
   * Starts the scorer once the output layout is known; `io` says what else the main thread does meanwhile
   * (a local engine's pool then decides whether it scores too).
   */
  readonly startScorer: (layout: OutputLayout, io: MainThreadIo) => Promise<BatchScorer>;
  /** How often a --resume job makes its progress durable. */
  readonly checkpointIntervalMs?: number;
  /**
   * Aborted (with the signal's name as reason) to stop the run: no further row is read, the rows in flight
   * are written and checkpointed (--resume), nothing is published, and the job throws JobInterrupted.
   */
  readonly stop?: AbortSignal;
  /** `--reference`: a previous run's summary, which the summary and report are compared with. */
  readonly reference?: Summary | undefined;
}

/** The main thread's share of the reading and writing, beside scoring. */
export interface MainThreadIo {
  /**
   * Whether the main thread has room to score beside its I/O: only when it reads Arrow and writes Arrow or
   * CSV (batches passed through). It parses a CSV input and decodes or encodes Parquet itself, and then
   * leaves scoring to the workers (mainThreadScores).
   */
  readonly scores: boolean;
}

/**
 * With CSV input the main thread parses; with Parquet it decodes and encodes in WebAssembly. An engine of
 * its own then costs more memory than its scoring saves time: CSV → CSV, 1 M rows, Node 22, one worker,
 * peak RSS 199–213 MB without it against 257–263 MB with it, in 0.95 of the CPU time (loading it grows the
 * main thread's heap, which unlike a worker's is not held small), at about 1.2 times the wall time: the
 * worker then scores every row. Parquet: 268 MB against 291–305 MB. bench/NOTES.md has the measurements.
 */
export const mainThreadScores = (input: FileFormat, output: FileFormat): boolean =>
  input === 'arrow' && output !== 'parquet';

export interface ScoreJobResult {
  readonly rowsIn: number;
  readonly rowsScored: number;
  readonly rowsRejected: number;
  /** Scored rows whose ZIP had its leading zeros restored. */
  readonly zipsPadded: number;
  readonly modelVersion: string;
  /** The comparison with `reference`, when one was given. */
  readonly comparison?: Comparison | undefined;
  readonly files: { scored: string; rejects: string; summary: string; report: string };
  /** CSV input: the records that spanned several lines. */
  readonly lineSpans?: LineSpanReport | undefined;
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
  readonly digest: InputDigest;
  lock?: OutputLock | undefined;
  scorer?: BatchScorer | undefined;
  outputs?: JobOutputs | undefined;
}

/** The figures a finished scoring pass hands to the summary. */
interface Scored {
  readonly writer: BatchWriter;
  readonly modelVersion: string;
  readonly engineKind: BatchScorer['engineKind'];
  readonly priceYear: number | undefined;
  readonly engineReadyMs: number;
  readonly scoringMs: number;
}

export async function runScoreJob(options: ScoreJobOptions): Promise<ScoreJobResult> {
  const startedAt = new Date();
  const inputOptions = inputOptionsOf(options);
  const format = options.format ?? (options.scoredStream === undefined ? inputOptions.format : 'arrow');
  refuseImpossibleOptions(options, format);
  const digest = digestInput(options.input);
  const part =
    options.shard === null ? undefined : { index: options.shard.index - 1, count: options.shard.count };
  const { source, map } = await openInput(
    options.input,
    inputOptions,
    options.mapFile,
    options.batchRows,
    part,
  );
  const withPassThrough = { ...map, passThrough: options.passThrough ?? [] };
  const name = outputNameOf(options.input);
  const paths = outputPathsOf(options.outDir, name, format, options.compress);
  const run: Run = { options, startedAt, name, paths, source, map: withPassThrough, digest };
  try {
    await mkdir(options.outDir, { recursive: true });
    run.lock = await lockOutputs(options.outDir, name, options.logger);
    return await scoreAndPublish(run, format);
  } catch (error) {
    if (run.outputs !== undefined) await releaseOutputs(run.outputs, options.resume);
    throw error;
  } finally {
    await run.scorer?.close();
    await source.close();
    await run.lock?.release();
  }
}

const inputOptionsOf = (options: ScoreJobOptions): InputOptions => ({
  format: inputFormatOf(options.input, options.inputFormat),
  csv: { encoding: 'utf-8', ...options.csv, gzip: false },
});

function refuseImpossibleOptions(options: ScoreJobOptions, format: FileFormat): void {
  if (options.scoredStream !== undefined && format !== 'arrow')
    throw new Error(`--scored - writes an Arrow IPC stream; --format ${format} needs a file`);
  if (options.excel === true && format !== 'csv')
    throw new Error(
      `--excel writes the scored file as CSV for Excel; ${format === 'arrow' ? 'Arrow' : 'Parquet'} output has no such form: give --format csv, or leave out --excel`,
    );
  if (options.compress === 'gzip' && format !== 'csv')
    throw new Error(
      `--compress gzip applies to CSV output; ${format === 'arrow' ? 'Arrow' : 'Parquet'} output is written as it is`,
    );
  if (options.resume) refuseImpossibleResume(options, format);
}

function refuseImpossibleResume(options: ScoreJobOptions, format: FileFormat): void {
  if (options.compress === 'gzip')
    throw new Error('--resume needs uncompressed output: a gzip stream cannot be cut back to a checkpoint');
  if (options.input === '-') {
    throw new Error('--resume needs an input file: standard input cannot be read again after a restart');
  }
  if (format !== 'csv') {
    throw new Error(
      `--resume needs CSV output (--format csv): an ${format === 'arrow' ? 'Arrow' : 'Parquet'} file cannot be appended to after a restart`,
    );
  }
}

async function scoreAndPublish(run: Run, format: FileFormat): Promise<ScoreJobResult> {
  const { options, source, name } = run;
  const plan = planRequest(source.header, source.kinds, run.map);
  const loan = planLoan(source.header, run.map, options.loanRate);
  const summary = new SummaryBuilder({ groupBy: options.groupBy, lending: loan !== null });
  // The builder's columns, without repeats: the encoder's group columns must be in its order.
  const layout = makeLayout(
    source.header,
    plan,
    outputFormatOf(format),
    options.scoreKey,
    summary.groupBy,
    options.scoring,
    loan,
    options.excel === true ? excelDialect(source.delimiter) : DEFAULT_CSV_DIALECT,
  );
  const scored = await scoreAll(run, layout, summary, format);
  const inputSha256 = await run.digest;
  let comparison: Comparison | undefined;
  const report = await stageOutputs(run.outputs!, options.outDir, name, () => {
    const meta = { ...summaryMeta(run, scored, inputSha256), columns: [...plan.columns] };
    const finished = withLineSpans(summary.finish(meta), run.source.lineSpans?.());
    if (options.reference === undefined) return finished;
    comparison = compareSummaries(finished, options.reference);
    return { ...finished, comparison };
  });
  // Before the summary, which a scheduler takes as the sign that every output is in place.
  await writeColumnDictionary(options.outDir, name, layout);
  await publishOutputs(run.outputs!, report, run.paths.checkpoint, run.lock!);
  return { ...resultOf(run, scored, report), zipsPadded: summary.zipsPadded, comparison };
}

/**
 * Starts the scorer, opens the outputs (resuming when a matching checkpoint says so), scores every selected
 * row and closes the scorer. The scorer starts first so the checkpoint can be tied to its model: resuming
 * under another model would mix two models' numbers in one file.
 */
async function scoreAll(
  run: Run,
  layout: OutputLayout,
  summary: SummaryBuilder,
  format: FileFormat,
): Promise<Scored> {
  const { options, paths, source } = run;
  const scoringStarted = performance.now();
  const scorer = await options.startScorer(layout, { scores: mainThreadScores(source.format, format) });
  run.scorer = scorer;
  const engineReadyMs = performance.now() - scoringStarted;
  const fingerprint = await checkpointFingerprint(run, layout, scorer.modelVersion);
  const opened = await openOutputs(run, layout, summary, fingerprint, format);
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
  const select = (batch: SourceBatch) => selectRows(batch, resumeAfter);
  await scoreInOrder(source, scorer, select, writer, options.stop);
  progress.done();
  await stopIfAsked(options, writer);
  const scoringMs = performance.now() - scoringStarted;
  // Workers (isolates, engines, heaps) go before the summary is expanded into sorted lists, the job's
  // largest main-thread allocation: holding both was the peak RSS of long runs.
  const { modelVersion, engineKind, priceYear } = scorer;
  run.scorer = undefined;
  await scorer.close();
  return { writer, modelVersion, engineKind, priceYear, engineReadyMs, scoringMs };
}

/** Stdin is never resumed (refused up front), so its digest, known only at its end, is not waited for. */
async function checkpointFingerprint(run: Run, layout: OutputLayout, modelVersion: string): Promise<string> {
  const { options } = run;
  if (!options.resume) return '';
  return fingerprintOf(options.input, await run.digest, {
    format: layout.format,
    shard: options.shard,
    groupBy: options.groupBy,
    map: run.map,
    // Absent (and so out of the fingerprint) unless asked for: checkpoints of default runs stay valid.
    delimiter: options.csv?.delimiter,
    encoding: options.csv?.encoding === 'utf-8' ? undefined : options.csv?.encoding,
    singleLineRecords: options.csv?.singleLineRecords,
    excel: options.excel === true ? true : undefined,
    scoreKey: options.scoreKey,
    scoring: options.scoring,
    modelVersion,
  });
}

/** After a stop: the rows written so far are checkpointed (--resume), and the run ends unpublished. */
async function stopIfAsked(options: ScoreJobOptions, writer: BatchWriter): Promise<void> {
  if (options.stop?.aborted !== true) return;
  await writer.checkpoint();
  throw new JobInterrupted(options.stop.reason as InterruptingSignal, writer.rowsDone, options.resume);
}

async function openOutputs(
  run: Run,
  layout: OutputLayout,
  summary: SummaryBuilder,
  fingerprint: string,
  format: FileFormat,
): Promise<OpenedOutputs> {
  const { options, paths } = run;
  const resumed = options.resume
    ? await matchingCheckpoint(paths.checkpoint, fingerprint, [paths.scored, paths.rejects], options.logger)
    : undefined;
  if (resumed === undefined) {
    // A fresh run replaces the temporary files; a checkpoint left beside them would no longer fit them.
    if (await removeCheckpoint(paths.checkpoint))
      options.logger.info(
        { checkpoint: paths.checkpoint },
        'starting over: the earlier checkpoint is removed',
      );
    const created = await createOutputs(
      paths,
      layout,
      format,
      options.compress,
      run.source.arrowFields ?? null,
      run.scorer!,
      options.scoredStream,
    );
    run.outputs = created.outputs;
    return created;
  }
  // Held before the replay, so that a failure in it still releases the files.
  run.outputs = await reopenOutputs(paths, resumed);
  return replayOutputs(run.outputs, paths, resumed, layout, summary, options.logger);
}

function summaryMeta(run: Run, scored: Scored, inputSha256: string): SummaryMeta {
  const { options, startedAt } = run;
  const finishedAt = new Date();
  return {
    input: options.input === '-' ? '-' : basename(options.input),
    inputSha256,
    shard: options.shard,
    modelVersion: scored.modelVersion,
    engine: scored.engineKind,
    basis: options.scoring.basis,
    scoreProfile: options.scoring.profile,
    priceYear: scored.priceYear,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    timings: {
      engineReadyMs: Math.round(scored.engineReadyMs),
      scoringMs: Math.round(scored.scoringMs),
      totalMs: finishedAt.getTime() - startedAt.getTime(),
    },
  };
}

function resultOf(run: Run, scored: Scored, report: StagedReport): Omit<ScoreJobResult, 'zipsPadded'> {
  const { writer } = scored;
  return {
    modelVersion: scored.modelVersion,
    rowsIn: writer.rowsScored + writer.rowsRejected,
    rowsScored: writer.rowsScored,
    rowsRejected: writer.rowsRejected,
    lineSpans: run.source.lineSpans?.(),
    files: {
      scored: run.options.scoredStream === undefined ? run.paths.scored : '-',
      rejects: run.paths.rejects,
      summary: report.paths.summaryPath,
      report: report.paths.reportPath,
    },
  };
}
