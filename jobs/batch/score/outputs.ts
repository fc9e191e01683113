/**
 * The job's output files under their temporary names: created for a fresh run, or cut back to a
 * checkpoint's lengths for a resumed one (with the summary of the rows already written rebuilt). A failed
 * run discards them, or keeps them for the next `--resume`.
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import { csvHeader } from '../io/csv-encoding.js';
import type { InputSource } from '../io/input-source.js';
import { OutputFile } from '../io/output-file.js';
import type { SummaryBuilder } from '../report/summary.js';
import type { ModelIdentity } from './arrow-sink.js';
import { type Checkpoint, replayScoredRows } from './checkpoint.js';
import { type FileFormat, type OutputLayout, rejectsHeader } from './layout.js';
import { CsvScoredSink, GzipCsvScoredSink, type ScoredSink } from './sinks.js';

export interface OutputPaths {
  readonly scored: string;
  readonly rejects: string;
  readonly checkpoint: string;
}

export interface JobOutputs {
  readonly scored: ScoredSink;
  readonly rejects: OutputFile;
}

/** Outputs opened, with the counts of the rows they already hold (all zero for a fresh run). */
export interface OpenedOutputs {
  readonly outputs: JobOutputs;
  readonly rowsScored: number;
  readonly rowsDone: number;
  readonly rejectedByReason: Map<string, number>;
}

/** `--compress`: how the scored file is compressed (CSV only; Arrow and Parquet have their own). */
export type Compression = 'gzip' | undefined;

export function outputPathsOf(
  outDir: string,
  name: string,
  format: FileFormat,
  compress: Compression,
): OutputPaths {
  return {
    scored: join(outDir, `${name}.scored.${format}${compress === 'gzip' ? '.gz' : ''}`),
    rejects: join(outDir, `${name}.rejects.csv`),
    checkpoint: join(outDir, `.${name}.checkpoint.json`),
  };
}

export async function createOutputs(
  paths: OutputPaths,
  layout: OutputLayout,
  format: FileFormat,
  compress: Compression,
  arrowFields: NonNullable<InputSource['arrowFields']> | null,
  model: ModelIdentity,
  scoredStream?: NodeJS.WritableStream,
): Promise<OpenedOutputs> {
  const rejects = await OutputFile.create(paths.rejects);
  await rejects.write(csvHeader(rejectsHeader(layout), layout.csv));
  const scored =
    format === 'csv'
      ? await (compress === 'gzip' ? GzipCsvScoredSink : CsvScoredSink).create(paths.scored, layout)
      : await (await import('./arrow-sink.js')).ArrowScoredSink.create(
          paths.scored,
          layout,
          arrowFields,
          model,
          scoredStream ?? format,
        );
  return { outputs: { scored, rejects }, rowsScored: 0, rowsDone: 0, rejectedByReason: new Map() };
}

/** Reopens the outputs cut back to the checkpoint's lengths. */
export async function reopenOutputs(paths: OutputPaths, checkpoint: Checkpoint): Promise<JobOutputs> {
  return {
    scored: await CsvScoredSink.resume(paths.scored, checkpoint.scoredBytes),
    rejects: await OutputFile.resume(paths.rejects, checkpoint.rejectsBytes),
  };
}

/** Feeds `summary` with the rows reopened outputs hold, and counts them. */
export async function replayOutputs(
  outputs: JobOutputs,
  paths: OutputPaths,
  checkpoint: Checkpoint,
  layout: OutputLayout,
  summary: SummaryBuilder,
  logger: Logger,
): Promise<OpenedOutputs> {
  const rowsScored = await replayScoredRows(paths.scored, checkpoint.scoredBytes, layout, summary);
  const rejectedByReason = new Map<string, number>(Object.entries(checkpoint.rejectedByReason));
  for (const [reason, count] of rejectedByReason) for (let i = 0; i < count; i++) summary.addRejected(reason);
  summary.addZipsPadded(checkpoint.zipsPadded);
  logger.info({ rowsDone: checkpoint.rowsDone, rowsScored }, 'resuming from checkpoint');
  return { outputs, rowsScored, rowsDone: checkpoint.rowsDone, rejectedByReason };
}

/** After a failure: a --resume run keeps its temporary files and last checkpoint for the next attempt. */
export async function releaseOutputs(outputs: JobOutputs, keepForResume: boolean): Promise<void> {
  const release = keepForResume ? (file: OutputFile) => file.close() : (file: OutputFile) => file.discard();
  const files = outputs.scored.file === null ? [outputs.rejects] : [outputs.scored.file, outputs.rejects];
  await Promise.all(files.map(release));
}
