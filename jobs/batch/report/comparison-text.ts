/**
 * A comparison as plain text, for `outlay compare` and a terminal: one aligned table per part, the same
 * figures as the JSON and the report.
 */
import type { Comparison, RunFacts, ShareChange } from './comparison-schema.js';
import { PSI_SHIFTED_ABOVE, PSI_STABLE_BELOW } from './psi.js';
import { STABILITY_FIELDS } from './stability-bins.js';

const percent = (share: number | null) => (share === null ? '–' : `${(share * 100).toFixed(2)}%`);
const points = (change: number | null) =>
  change === null
    ? '–'
    : `${change > 0 ? '+' : change < 0 ? '−' : '±'}${Math.abs(change * 100).toFixed(2)} pts`;
const number = (value: number | null, decimals: number) => (value === null ? '–' : value.toFixed(decimals));

/** Columns padded to their widest cell; the first left-aligned, the others right-aligned. */
function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => [...row[c]!].length)));
  return rows
    .map(
      (row) =>
        `  ${row
          .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
          .join('  ')
          .trimEnd()}`,
    )
    .join('\n');
}

export const fieldTitle = (name: string): string =>
  STABILITY_FIELDS.find((field) => field.name === name)?.title ?? name;

function runLine(label: string, run: RunFacts): string {
  const shards = run.merged_shards === null ? '' : `, merged from ${run.merged_shards} shards`;
  return `  ${label} ${run.input}${shards}: model ${run.model_version}, prices ${run.price_year ?? 'not recorded'}, ${run.basis} basis, ${run.score_profile} profile; ${run.rows_scored} of ${run.rows_in} rows scored; finished ${run.finished_at}`;
}

function psiTable(comparison: Comparison): string {
  const rows = comparison.psi.map((field) => [
    fieldTitle(field.field),
    field.kind,
    number(field.psi, 4),
    field.reading ?? field.note ?? '',
  ]);
  return table([['field', 'kind', 'PSI', 'reading'], ...rows]);
}

function shareTable(title: string, changes: readonly ShareChange[]): string {
  if (changes.length === 0) return `${title}: none in either run`;
  const rows = changes.map((c) => [c.name, percent(c.reference), percent(c.current), points(c.change)]);
  return `${title}\n${table([['', 'reference', 'this run', 'change'], ...rows])}`;
}

function mediansTable(comparison: Comparison): string {
  const rows = comparison.cohort_medians.map((m) => [
    `${m.dimension} ${m.cohort}`,
    `${m.reference_rows} → ${m.current_rows}`,
    `${number(m.reference_median_psa, 0)} → ${number(m.current_median_psa, 0)}`,
    `${number(m.reference_median_index, 1)} → ${number(m.current_median_index, 1)}`,
  ]);
  return `Cohort medians (reference → this run)\n${table([['cohort', 'rows', 'median PSA $/month', 'median index'], ...rows])}`;
}

export function comparisonText(comparison: Comparison): string {
  const { reject_rate: rejects } = comparison;
  return [
    'Compared with the reference run',
    runLine('reference:', comparison.reference),
    runLine('this run: ', comparison.current),
    ...comparison.warnings.map((warning) => `WARNING: ${warning}`),
    '',
    `Population stability index (PSI; under ${PSI_STABLE_BELOW} stable, ${PSI_STABLE_BELOW}–${PSI_SHIFTED_ABOVE} watch, over ${PSI_SHIFTED_ABOVE} shifted)`,
    psiTable(comparison),
    '',
    `Reject rate: ${percent(rejects.reference)} → ${percent(rejects.current)} (${points(rejects.change)})`,
    shareTable('Rejected rows by reason (share of rows in)', comparison.rejected_by_reason),
    shareTable('Reason codes (share of scored rows)', comparison.reason_codes),
    shareTable('Expense flags (share of scored rows)', comparison.expense_flags),
    '',
    mediansTable(comparison),
    '',
  ].join('\n');
}
