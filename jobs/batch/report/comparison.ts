/**
 * A run compared with a reference run, from their two summaries alone (so a merged summary compares as
 * the single run's would): PSI over the fixed bins of each input field and output, the change in the
 * reject rate, in each reason code's and flag's share and in cohort medians, and a warning for each
 * difference in what the scores depend on.
 */

import type { Comparison, FieldStability, MedianChange, RunFacts, ShareChange } from './comparison-schema.js';
import { roundTo } from './format.js';
import { populationStabilityIndex, psiReading } from './psi.js';
import { STABILITY_FIELDS } from './stability-bins.js';
import type { Cohort, DimensionSummary, Summary } from './summary-schema.js';

export type { Comparison } from './comparison-schema.js';

const DECIMALS = 4;

function runFacts(summary: Summary): RunFacts {
  const { meta, counts } = summary;
  return {
    input: meta.input,
    input_sha256: meta.input_sha256 ?? null,
    merged_shards: meta.merged_shards,
    model_version: meta.model_version,
    price_year: meta.price_year ?? null,
    basis: meta.basis,
    score_profile: meta.score_profile,
    finished_at: meta.finished_at,
    rows_in: counts.rows_in,
    rows_scored: counts.rows_scored,
  };
}

const WHAT_SCORES_DEPEND_ON = [
  { key: 'model_version', what: 'model version', flag: '--model' },
  { key: 'price_year', what: 'price year', flag: 'the model' },
  { key: 'basis', what: 'score basis', flag: '--basis' },
  { key: 'score_profile', what: 'score profile', flag: '--score-profile' },
] as const;

/** One sentence per difference: outputs then move for a reason other than the applicants. */
function warningsOf(current: RunFacts, reference: RunFacts): string[] {
  return WHAT_SCORES_DEPEND_ON.filter(({ key }) => current[key] !== reference[key]).map(
    ({ key, what, flag }) =>
      `The ${what} differs: this run ${current[key] ?? 'not recorded'}, the reference ${reference[key] ?? 'not recorded'} (${flag}); ` +
      'the outputs may differ because of it, not because of the applicants.',
  );
}

function fieldStability(
  field: (typeof STABILITY_FIELDS)[number],
  current: Summary,
  reference: Summary,
): FieldStability | null {
  const currentBins = current.bins[field.name];
  const referenceBins = reference.bins[field.name];
  if (currentBins === undefined && referenceBins === undefined) return null;
  const base = { field: field.name, kind: field.kind };
  if (currentBins === undefined || referenceBins === undefined) {
    const note = currentBins === undefined ? 'not in this run' : 'not in the reference run';
    return { ...base, psi: null, reading: null, note, bins: [] };
  }
  const referenceLabels = Object.keys(referenceBins);
  const currentLabels = Object.keys(currentBins);
  const same = JSON.stringify(referenceLabels) === JSON.stringify(currentLabels);
  // Numeric fields have the same bins in every run; categories seen in only one run are sorted in.
  const labels = same
    ? referenceLabels
    : [...new Set([...referenceLabels, ...currentLabels])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const bins = labels.map((label) => ({
    label,
    reference: referenceBins[label] ?? 0,
    current: currentBins[label] ?? 0,
  }));
  const psi = populationStabilityIndex(
    bins.map((bin) => bin.reference),
    bins.map((bin) => bin.current),
  );
  const rounded = psi === null ? null : roundTo(psi, DECIMALS);
  return {
    ...base,
    psi: rounded,
    reading: rounded === null ? null : psiReading(rounded),
    note: psi === null ? 'no rows in one of the runs' : null,
    bins,
  };
}

const share = (count: number, total: number) => (total === 0 ? null : roundTo(count / total, DECIMALS));

function shareChange(name: string, current: number | null, reference: number | null): ShareChange {
  const change = current === null || reference === null ? null : roundTo(current - reference, DECIMALS);
  return { name, reference, current, change };
}

/** The share of each name in either run's counts, names in code-unit order. */
function shareChanges(
  current: Readonly<Record<string, number>>,
  currentTotal: number,
  reference: Readonly<Record<string, number>>,
  referenceTotal: number,
): ShareChange[] {
  const names = [...new Set([...Object.keys(reference), ...Object.keys(current)])].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return names.map((name) =>
    shareChange(name, share(current[name] ?? 0, currentTotal), share(reference[name] ?? 0, referenceTotal)),
  );
}

const median = (cohort: Cohort | undefined, stat: 'psa' | 'index') => cohort?.[stat].percentiles?.p50 ?? null;

function dimensionMedians(current: DimensionSummary, reference: DimensionSummary): MedianChange[] {
  const currentCohorts = new Map(current.cohorts.map((cohort) => [cohort.value, cohort]));
  const referenceCohorts = new Map(reference.cohorts.map((cohort) => [cohort.value, cohort]));
  const values = [...new Set([...currentCohorts.keys(), ...referenceCohorts.keys()])];
  return values.map((value) => {
    const now = currentCohorts.get(value);
    const then = referenceCohorts.get(value);
    return {
      dimension: current.name,
      cohort: value,
      reference_rows: then?.rows ?? 0,
      current_rows: now?.rows ?? 0,
      reference_median_psa: median(then, 'psa'),
      current_median_psa: median(now, 'psa'),
      reference_median_index: median(then, 'index'),
      current_median_index: median(now, 'index'),
    };
  });
}

function cohortMedians(current: Summary, reference: Summary): MedianChange[] {
  return current.dimensions.flatMap((dimension) => {
    const other = reference.dimensions.find((d) => d.name === dimension.name);
    return other === undefined ? [] : dimensionMedians(dimension, other);
  });
}

/** `current` compared with `reference`. */
export function compareSummaries(current: Summary, reference: Summary): Comparison {
  const currentFacts = runFacts(current);
  const referenceFacts = runFacts(reference);
  const { counts } = current;
  const referenceCounts = reference.counts;
  return {
    reference: referenceFacts,
    current: currentFacts,
    warnings: warningsOf(currentFacts, referenceFacts),
    psi: STABILITY_FIELDS.flatMap((field) => fieldStability(field, current, reference) ?? []),
    reject_rate: shareChange(
      'rejected',
      share(counts.rows_rejected, counts.rows_in),
      share(referenceCounts.rows_rejected, referenceCounts.rows_in),
    ),
    rejected_by_reason: shareChanges(
      counts.rejected_by_reason,
      counts.rows_in,
      referenceCounts.rejected_by_reason,
      referenceCounts.rows_in,
    ),
    reason_codes: shareChanges(
      current.reason_codes,
      counts.rows_scored,
      reference.reason_codes,
      referenceCounts.rows_scored,
    ),
    expense_flags: shareChanges(
      current.expense_flags,
      counts.rows_scored,
      reference.expense_flags,
      referenceCounts.rows_scored,
    ),
    cohort_medians: cohortMedians(current, reference),
  };
}

/** The index's PSI, the figure `--max-psi` is checked against; null when it could not be computed. */
export const indexPsi = (comparison: Comparison): number | null =>
  comparison.psi.find((field) => field.field === 'index')?.psi ?? null;
