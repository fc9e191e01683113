/**
 * `outlay merge`: reads the summary.json of every shard of one run, checks they form the whole run, and
 * writes the combined summary and report, equal (meta aside) to those of a single run over the input.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { mergeSummaries, type Summary } from '../../src/report/summary.js';
import { parseSummary } from '../../src/report/summary-json.js';
import {
  type ReportFiles,
  reportFileName,
  summaryFileName,
  writeSummaryAndReport,
} from '../../src/report/write.js';
import { outputNameOf } from '../score/job.js';

export interface MergeOptions {
  /** Paths of the shard summaries, in any order. */
  readonly summaries: readonly string[];
  readonly outDir: string;
  /** Output base name; default: the input file's name without its extension, as `outlay score` names it. */
  readonly name?: string | undefined;
}

export interface MergeResult extends ReportFiles {
  readonly summary: Summary;
}

async function readSummary(path: string): Promise<Summary> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseSummary(text, path);
}

export async function runMerge(options: MergeOptions): Promise<MergeResult> {
  const summaries = await Promise.all(options.summaries.map(readSummary));
  const summary = mergeSummaries(summaries);
  const name = options.name ?? outputNameOf(summary.meta.input);
  // Writing over one of the shard summaries would destroy an input of the merge it is the result of.
  const inputs = new Set(options.summaries.map((path) => resolve(path)));
  for (const output of [summaryFileName(name), reportFileName(name)].map((file) =>
    resolve(options.outDir, file),
  )) {
    if (inputs.has(output))
      throw new Error(`merge: the output ${output} is one of the inputs; choose another --out or --name`);
  }
  const files = await writeSummaryAndReport(options.outDir, name, summary);
  return { ...files, summary };
}
