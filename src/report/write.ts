/**
 * Writes a run's `<name>.summary.json` and `<name>.report.html`, each atomically (temporary file, fsync,
 * rename), so a reader or a scheduler waiting for the file never sees a half-written report.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomically } from '../io/output-file.js';
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
  await mkdir(outDir, { recursive: true });
  const files = {
    summaryPath: join(outDir, summaryFileName(name)),
    reportPath: join(outDir, reportFileName(name)),
  };
  await writeFileAtomically(files.summaryPath, summaryChunks(summary));
  await writeFileAtomically(files.reportPath, renderReport(summary));
  return files;
}
