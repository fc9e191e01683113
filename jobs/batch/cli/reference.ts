/**
 * `--reference` and `--max-psi`, shared by `outlay score` and `outlay merge`: the reference summary is
 * read before any work, so a bad path fails the run at once; the comparison goes to the log, and a PSI of
 * the index above `--max-psi` ends the run with EXIT_PSI_EXCEEDED (its files published).
 */
import type { Logger } from 'pino';
import { type Comparison, indexPsi } from '../report/comparison.js';
import { readSummary } from '../report/read-summary.js';
import type { Summary } from '../report/summary-schema.js';
import { EXIT_PSI_EXCEEDED } from '../score/exit-codes.js';

export const referenceOptions = {
  reference: {
    type: 'string',
    describe:
      "A previous run's summary.json (a single run's or a merged one): compare this run with it in the summary, the report and the log",
  },
  'max-psi': {
    type: 'number',
    describe: `With --reference: exit ${EXIT_PSI_EXCEEDED} (files published) when the index's PSI is above this (e.g. 0.25)`,
  },
} as const;

export interface Reference {
  readonly summary: Summary | undefined;
  readonly maxPsi: number | undefined;
}

export async function readReference(
  path: string | undefined,
  maxPsi: number | undefined,
): Promise<Reference> {
  if (maxPsi !== undefined && !(Number.isFinite(maxPsi) && maxPsi >= 0))
    throw new Error(`--max-psi must be a number ≥ 0, got ${maxPsi}`);
  if (path === undefined) {
    if (maxPsi !== undefined)
      throw new Error('--max-psi needs --reference: the PSI is against a reference run');
    return { summary: undefined, maxPsi };
  }
  return { summary: await readSummary(path), maxPsi };
}

/** The comparison's figures as log fields: every PSI and reading, the reject rate's change. */
const logFields = (comparison: Comparison) => ({
  reference: comparison.reference.input,
  referenceFinishedAt: comparison.reference.finished_at,
  psi: Object.fromEntries(comparison.psi.map((field) => [field.field, field.psi])),
  readings: Object.fromEntries(comparison.psi.map((field) => [field.field, field.reading ?? field.note])),
  rejectRate: comparison.reject_rate,
});

/**
 * Logs the comparison (warnings apart, one line each) and returns EXIT_PSI_EXCEEDED when the index's PSI
 * is above `maxPsi`, else null.
 */
export function judgeComparison(
  comparison: Comparison | undefined,
  maxPsi: number | undefined,
  logger: Logger,
): number | null {
  if (comparison === undefined) return null;
  for (const warning of comparison.warnings) logger.warn({ reference: comparison.reference.input }, warning);
  logger.info(logFields(comparison), 'compared with the reference run');
  const psi = indexPsi(comparison);
  if (maxPsi === undefined || psi === null || psi <= maxPsi) return null;
  logger.error(
    { indexPsi: psi, maxPsi, exitCode: EXIT_PSI_EXCEEDED },
    "the index's PSI against the reference run is above --max-psi: the outputs are published, the run is flagged",
  );
  return EXIT_PSI_EXCEEDED;
}
