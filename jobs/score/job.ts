/**
 * `outlay score` as a batch job: read → (shard, resume) select → score in parallel → write in input order →
 * summary and report. Memory is bounded by the batches in flight, never by the file: the reader is only
 * asked for the next batch once a slot is free, and results are written as soon as their turn comes.
 */
import { mkdir } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { Logger } from 'pino';
import {
  type ColumnMap,
  DEFAULT_COLUMN_MAP,
  loadColumnMap,
  planRequest,
} from '../../src/io/column-mapping.js';
import { openCsvSource } from '../../src/io/csv-source.js';
import { csvRecord } from '../../src/io/csv-text.js';
import { type InputSource, type SourceBatch, selectCells } from '../../src/io/input-source.js';
import { OutputFile, publishTogether } from '../../src/io/output-file.js';
import { SummaryBuilder } from '../../src/report/summary.js';
import { stageSummaryAndReport } from '../../src/report/write.js';
import {
  fingerprintOf,
  readCheckpoint,
  removeCheckpoint,
  replayScoredRows,
  writeCheckpoint,
} from './checkpoint.js';
import type { EncodedBatch } from './encode.js';
import { makeLayout, type OutputFormat, type OutputLayout, rejectsHeader } from './layout.js';
import { createProgress } from './progress.js';
import type { BatchScorer } from './scorer.js';
import { CsvScoredSink, type ScoredSink, type SelectedBatch } from './sinks.js';
import type { WorkBatch } from './work.js';

export interface Shard {
  /** 1-based, as written in `--shard I/N`. */
  readonly index: number;
  readonly count: number;
}

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

/** `households.csv` → `households`; standard input → `stdin`. */
export const outputNameOf = (input: string) => (input === '-' ? 'stdin' : basename(input, extname(input)));

function inputFormatOf(input: string): OutputFormat {
  if (input === '-') return 'csv';
  const extension = extname(input).toLowerCase();
  if (extension === '.csv') return 'csv';
  if (extension === '.arrow' || extension === '.arrows' || extension === '.feather') return 'arrow';
  throw new Error(
    `${input}: unknown input type "${extension}"; expected .csv, .arrow (IPC file or stream) or - for CSV on stdin`,
  );
}

/** The rows of a batch this run scores: those in its shard and not already written by an earlier run. */
function selectRows(batch: SourceBatch, shard: Shard | null, resumeAfter: number): Int32Array | null {
  if (shard === null && resumeAfter < batch.firstRow) return null;
  const chosen: number[] = [];
  for (let i = 0; i < batch.length; i++) {
    const row = batch.firstRow + i;
    if (row > resumeAfter && (shard === null || (row - 1) % shard.count === shard.index - 1)) chosen.push(i);
  }
  return Int32Array.from(chosen);
}

function workOf(seq: number, batch: SourceBatch, selection: Int32Array | null): WorkBatch {
  if (selection === null) {
    const rowNumbers = new Int32Array(batch.length);
    for (let i = 0; i < batch.length; i++) rowNumbers[i] = batch.firstRow + i;
    return { seq, rowNumbers, cells: batch.cells };
  }
  return {
    seq,
    rowNumbers: selection.map((i) => batch.firstRow + i),
    cells: selectCells(batch.cells, selection),
  };
}

export async function runScoreJob(options: ScoreJobOptions): Promise<ScoreJobResult> {
  const { logger } = options;
  const startedAt = new Date();
  const inputFormat = inputFormatOf(options.input);
  const format = options.format ?? inputFormat;
  if (options.resume && format === 'arrow') {
    throw new Error(
      '--resume needs CSV output (--format csv): an Arrow file cannot be appended to after a restart',
    );
  }
  const map: ColumnMap =
    options.mapFile === undefined ? DEFAULT_COLUMN_MAP : await loadColumnMap(options.mapFile);
  const source: InputSource =
    inputFormat === 'csv'
      ? await openCsvSource(options.input, options.batchRows)
      : // Loaded on use, like the Arrow sink below: a CSV job never needs apache-arrow in memory.
        await (await import('../../src/io/arrow-source.js')).openArrowSource(
          options.input,
          options.batchRows,
        );
  const name = outputNameOf(options.input);
  const paths = {
    scored: join(options.outDir, `${name}.scored.${format}`),
    rejects: join(options.outDir, `${name}.rejects.csv`),
    checkpoint: join(options.outDir, `.${name}.checkpoint.json`),
  };
  let scorer: BatchScorer | undefined;
  let outputs: { scored: ScoredSink; rejects: OutputFile } | undefined;
  try {
    const summary = new SummaryBuilder({ groupBy: options.groupBy });
    // The builder's columns, without repeats: the encoder's group columns must be in its order.
    const layout = makeLayout(
      source.header,
      planRequest(source.header, source.kinds, map),
      format,
      options.scoreKey,
      summary.groupBy,
    );
    await mkdir(options.outDir, { recursive: true });
    // The scorer starts first so the checkpoint can be tied to its model: resuming under another model
    // would mix two models' numbers in one file.
    const scoringStarted = performance.now();
    scorer = await options.startScorer(layout);
    const engineReadyMs = performance.now() - scoringStarted;
    const fingerprint = await fingerprintOf(options.input, {
      format,
      shard: options.shard,
      groupBy: options.groupBy,
      map,
      scoreKey: options.scoreKey,
      modelVersion: scorer.modelVersion,
    });
    const previous = options.resume ? await readCheckpoint(paths.checkpoint) : undefined;
    const resumed = previous !== undefined && previous.fingerprint === fingerprint ? previous : undefined;
    if (previous !== undefined && resumed === undefined) {
      logger.warn(
        { checkpoint: paths.checkpoint },
        'checkpoint is for another input or other options; starting over',
      );
    }
    const rejectedByReason = new Map<string, number>(Object.entries(resumed?.rejectedByReason ?? {}));
    let rowsScored = 0;
    if (resumed !== undefined) {
      outputs = {
        scored: await CsvScoredSink.resume(paths.scored, resumed.scoredBytes),
        rejects: await OutputFile.resume(paths.rejects, resumed.rejectsBytes),
      };
      rowsScored = await replayScoredRows(paths.scored, resumed.scoredBytes, layout, summary);
      for (const [reason, count] of rejectedByReason)
        for (let i = 0; i < count; i++) summary.addRejected(reason);
      logger.info({ rowsDone: resumed.rowsDone, rowsScored }, 'resuming from checkpoint');
    } else {
      const rejects = await OutputFile.create(paths.rejects);
      await rejects.write(csvRecord(rejectsHeader(layout)));
      outputs = {
        scored:
          format === 'csv'
            ? await CsvScoredSink.create(paths.scored, layout)
            : await (await import('./arrow-sink.js')).ArrowScoredSink.create(
                paths.scored,
                layout,
                source.arrowFields ?? null,
              ),
        rejects,
      };
    }
    const { scored, rejects } = outputs;
    let rowsRejected = [...rejectedByReason.values()].reduce((a, b) => a + b, 0);

    const progress = createProgress({ bar: options.progressBar, logger });
    const resumeAfter = resumed?.rowsDone ?? 0;
    let rowsDone = resumeAfter;
    let lastCheckpoint = performance.now();
    const checkpointInterval = options.checkpointIntervalMs ?? CHECKPOINT_INTERVAL_MS;

    const write = async (encoded: EncodedBatch, batch: SelectedBatch) => {
      await scored.write(encoded, batch);
      if (encoded.rejectsCsv.byteLength > 0) await rejects.write(encoded.rejectsCsv);
      summary.addRows(encoded.stats, encoded.scored);
      for (const reason of encoded.rejectReasons) {
        summary.addRejected(reason);
        rejectedByReason.set(reason, (rejectedByReason.get(reason) ?? 0) + 1);
      }
      rowsScored += encoded.scored;
      rowsRejected += encoded.rejectReasons.length;
      rowsDone = batch.firstRow + batch.length - 1;
      progress.update({
        rowsIn: rowsScored + rowsRejected,
        rowsRejected,
        fraction: source.sizeBytes ? source.bytesRead() / source.sizeBytes : undefined,
      });
      if (options.resume && performance.now() - lastCheckpoint >= checkpointInterval) {
        await writeCheckpoint(paths.checkpoint, {
          fingerprint,
          rowsDone,
          scoredBytes: await scored.file.sync(),
          rejectsBytes: await rejects.sync(),
          rejectedByReason: Object.fromEntries(rejectedByReason),
        });
        lastCheckpoint = performance.now();
      }
    };

    const inFlight: { result: Promise<EncodedBatch>; batch: SelectedBatch }[] = [];
    const writeOldest = async () => {
      const oldest = inFlight.shift()!;
      await write(await oldest.result, oldest.batch);
    };
    let seq = 0;
    for await (const batch of source.batches()) {
      const selection = selectRows(batch, options.shard, resumeAfter);
      if (selection !== null && selection.length === 0) {
        // Nothing to score here, but the rows still count as done once everything before them is written.
        if (inFlight.length === 0) rowsDone = Math.max(rowsDone, batch.firstRow + batch.length - 1);
        continue;
      }
      const result = scorer.score(workOf(seq++, batch, selection));
      // Awaited in order below; this handler only keeps an early failure from being reported as unhandled.
      result.catch(() => undefined);
      const { firstRow, length } = batch;
      inFlight.push({
        result,
        batch: { firstRow, length, source: scored.needsInput ? batch : null, selection },
      });
      if (inFlight.length >= scorer.parallelBatches) await writeOldest();
    }
    while (inFlight.length > 0) await writeOldest();
    progress.done();
    const scoringMs = performance.now() - scoringStarted;
    // Workers (isolates, engines, heaps) go before the summary is expanded into sorted lists, the job's
    // largest main-thread allocation: holding both was the peak RSS of long runs.
    const { modelVersion, engineKind } = scorer;
    const finishedScorer = scorer;
    scorer = undefined;
    await finishedScorer.close();

    await scored.end();
    // The outputs' fsync (~130 ms for a 1 M-row Arrow file) runs while the summary is computed instead of
    // after it; publishTogether's own sync then finds nothing left to write.
    const durable = Promise.all([scored.file.sync(), rejects.sync()]);
    durable.catch(() => undefined);
    const finishedAt = new Date();
    const report = await stageSummaryAndReport(
      options.outDir,
      name,
      summary.finish({
        input: options.input === '-' ? '-' : basename(options.input),
        shard: options.shard,
        modelVersion,
        engine: engineKind,
        startedAt: startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        timings: {
          engineReadyMs: Math.round(engineReadyMs),
          scoringMs: Math.round(scoringMs),
          totalMs: finishedAt.getTime() - startedAt.getTime(),
        },
      }),
    );
    await durable;
    // Everything is durable under temporary names before anything is published. The checkpoint goes
    // first: a kill between it and the renames only costs a fresh run, never a wrong resume.
    await removeCheckpoint(paths.checkpoint);
    await publishTogether([scored.file, rejects, ...report.files]);
    return {
      rowsIn: rowsScored + rowsRejected,
      rowsScored,
      rowsRejected,
      files: {
        scored: paths.scored,
        rejects: paths.rejects,
        summary: report.paths.summaryPath,
        report: report.paths.reportPath,
      },
    };
  } catch (error) {
    if (outputs !== undefined) {
      // A --resume run keeps its temporary files and last checkpoint for the next attempt.
      const release = options.resume
        ? (file: OutputFile) => file.close()
        : (file: OutputFile) => file.discard();
      await Promise.all([release(outputs.scored.file), release(outputs.rejects)]);
    }
    throw error;
  } finally {
    await scorer?.close();
    await source.close();
  }
}
