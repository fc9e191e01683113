/**
 * Writes a run's `<name>.summary.json` and `<name>.report.html` atomically (temporary files, fsync,
 * renames), so a reader or a scheduler waiting for the summary never sees a half-written report.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type OutputFile, publishTogether, stageFile } from '../io/output-file.js';
import { renderReport } from './html.js';
import type { Summary } from './summary.js';
import { summaryChunks } from './summary-json.js';

export interface ReportFiles {
  readonly summaryPath: string;
  readonly reportPath: string;
}

export const summaryFileName = (name: string) => `${name}.summary.json`;
export const reportFileName = (name: string) => `${name}.report.html`;

export async function writeSummaryAndReport(
  outDir: string,
  name: string,
  summary: Summary,
): Promise<ReportFiles> {
  const staged = await stageSummaryAndReport(outDir, name, summary);
  await publishTogether(staged.files);
  return staged.paths;
}

/**
 * Writes both files under their temporary names, for the caller to publish together with its other
 * outputs. `files` lists the report before the summary: the summary is the mark of a finished run.
 */
export async function stageSummaryAndReport(
  outDir: string,
  name: string,
  summary: Summary,
): Promise<{ paths: ReportFiles; files: OutputFile[] }> {
  await mkdir(outDir, { recursive: true });
  const paths = {
    summaryPath: join(outDir, summaryFileName(name)),
    reportPath: join(outDir, reportFileName(name)),
  };
  const report = await stageFile(paths.reportPath, renderReport(summary));
  const summaryFile = await stageFile(paths.summaryPath, summaryChunks(summary)).catch(async (error) => {
    await report.discard();
    throw error;
  });
  return { paths, files: [report, summaryFile] };
}
