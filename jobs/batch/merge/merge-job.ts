/**
 * `outlay merge`: reads the summary.json of every shard of one run, checks they form the whole run, and
 * writes the combined summary and report, equal (meta aside) to those of a single run over the input.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { publishTogether } from '../io/output-file.js';
import { compareSummaries } from '../report/comparison.js';
import { readSummary } from '../report/read-summary.js';
import { mergeSummaries, type Summary } from '../report/summary.js';
import {
  type ReportFiles,
  reportFileName,
  stageSummaryAndReport,
  summaryFileName,
  writeSummaryAndReport,
} from '../report/write.js';
import { outputNameOf } from '../score/job.js';
import { discardAll, type ShardFiles, stageMergedRows } from './merge-rows.js';

export interface MergeOptions {
  /** Paths of the shard summaries, in any order. */
  readonly summaries: readonly string[];
  readonly outDir: string;
  /** Output base name; default: the input file's name without its extension, as `outlay score` names it. */
  readonly name?: string | undefined;
  /** Also merge the scored and rejects files beside each summary into one of each (`--rows`). */
  readonly rows?: boolean | undefined;
  /** `--reference`: a previous run's summary, which the merged summary and report are compared with. */
  readonly reference?: Summary | undefined;
  /** Aborted by SIGTERM or SIGINT: the merge of rows stops, publishes nothing and removes its files. */
  readonly stop?: AbortSignal | undefined;
}

export interface MergeResult extends ReportFiles {
  readonly summary: Summary;
}

export async function runMerge(options: MergeOptions): Promise<MergeResult> {
  const summaries = await Promise.all(options.summaries.map(readSummary));
  const merged = mergeSummaries(summaries);
  const summary =
    options.reference === undefined
      ? merged
      : { ...merged, comparison: compareSummaries(merged, options.reference) };
  const name = options.name ?? outputNameOf(summary.meta.input);
  // Writing over one of the shard summaries would destroy an input of the merge it is the result of.
  const inputs = new Set(options.summaries.map((path) => resolve(path)));
  for (const output of [summaryFileName(name), reportFileName(name)].map((file) =>
    resolve(options.outDir, file),
  )) {
    if (inputs.has(output))
      throw new Error(`merge: the output ${output} is one of the inputs; choose another --out or --name`);
  }
  if (!options.rows) return { ...(await writeSummaryAndReport(options.outDir, name, summary)), summary };
  await mkdir(options.outDir, { recursive: true });
  const shards = inShardOrder(options.summaries, summaries);
  const rows = await stageMergedRows(shards, options.outDir, name, options.stop);
  let files = rows;
  try {
    const staged = await stageSummaryAndReport(options.outDir, name, summary);
    files = [...rows, ...staged.files];
    options.stop?.throwIfAborted();
    // The summary last: it marks a finished merge.
    await publishTogether(files);
    return { ...staged.paths, summary };
  } catch (error) {
    await discardAll(files);
    throw error;
  }
}

/** Each summary's directory and file base name, in the order of the shards' numbers. */
function inShardOrder(paths: readonly string[], summaries: readonly Summary[]): ShardFiles[] {
  return summaries
    .map((summary, i) => ({ summary, dir: dirname(paths[i]!) }))
    .sort((a, b) => (a.summary.meta.shard?.index ?? 0) - (b.summary.meta.shard?.index ?? 0))
    .map(({ summary, dir }) => ({ dir, name: outputNameOf(summary.meta.input) }));
}
