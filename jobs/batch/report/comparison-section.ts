/**
 * The report's comparison with the reference run (`--reference`): the warnings first, then one row per
 * field with its PSI drawn against the 0.10 and 0.25 thresholds, its reading and the bin that moved most,
 * then the reject rate, reason codes, flags and cohort medians. Shown only when the summary has one.
 */
import type { Comparison, FieldStability, MedianChange, ShareChange } from './comparison-schema.js';
import { fieldTitle } from './comparison-text.js';
import { escapeHtml, formatCount, formatDollars, formatScore, formatShare } from './format.js';
import { PSI_SHIFTED_ABOVE, PSI_STABLE_BELOW } from './psi.js';

/** The bar's full width is this PSI; larger ones are drawn full. */
const BAR_MAX_PSI = 0.5;

export const COMPARISON_STYLE = `
.warning { border: 1px solid #d4ac0d; background: #fdf6dc; border-radius: 6px; padding: 8px 12px; margin: 8px 0; max-width: none; }
.reading { display: inline-block; min-width: 5.5em; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; text-align: center; color: #fff; }
.reading.stable { background: #1e8449; } .reading.watch { background: #b7950b; } .reading.shifted { background: #b03a2e; }
.psi-bar { position: relative; display: inline-block; width: 160px; height: 10px; background: #eef1f4; vertical-align: middle; }
.psi-bar .fill { position: absolute; left: 0; top: 0; bottom: 0; background: #2e6da4; }
.psi-bar .mark { position: absolute; top: -3px; bottom: -3px; width: 1px; background: #1f2937; }
td.moved { text-align: left; }
`;

const percentOf = (psi: number) => `${(Math.min(psi, BAR_MAX_PSI) / BAR_MAX_PSI) * 100}%`;

function psiBar(psi: number | null): string {
  if (psi === null) return '';
  const marks = [PSI_STABLE_BELOW, PSI_SHIFTED_ABOVE]
    .map((at) => `<span class="mark" style="left:${percentOf(at)}"></span>`)
    .join('');
  return `<span class="psi-bar" role="img" aria-label="PSI ${psi.toFixed(4)}"><span class="fill" style="width:${percentOf(psi)}"></span>${marks}</span>`;
}

const shareOf = (count: number, total: number) => (total === 0 ? 0 : count / total);

/** The bin whose share moved most, as "label: reference → this run". */
function mostMoved(field: FieldStability): string {
  const referenceTotal = field.bins.reduce((sum, bin) => sum + bin.reference, 0);
  const currentTotal = field.bins.reduce((sum, bin) => sum + bin.current, 0);
  if (referenceTotal === 0 || currentTotal === 0) return '';
  const moves = field.bins.map((bin) => ({
    label: bin.label,
    from: shareOf(bin.reference, referenceTotal),
    to: shareOf(bin.current, currentTotal),
  }));
  const top = moves.reduce((a, b) => (Math.abs(b.to - b.from) > Math.abs(a.to - a.from) ? b : a));
  return `${escapeHtml(top.label)}: ${formatShare(top.from)} → ${formatShare(top.to)}`;
}

function psiRow(field: FieldStability): string {
  const reading =
    field.reading === null
      ? `<span class="muted">${escapeHtml(field.note ?? '')}</span>`
      : `<span class="reading ${field.reading}">${field.reading}</span>`;
  return `<tr><th scope="row">${escapeHtml(fieldTitle(field.field))}</th><td>${field.kind}</td><td>${field.psi === null ? '–' : field.psi.toFixed(4)}</td><td>${psiBar(field.psi)}</td><td>${reading}</td><td class="moved">${mostMoved(field)}</td></tr>`;
}

function psiTable(comparison: Comparison): string {
  const head =
    '<tr><th scope="col">Field</th><th scope="col">Kind</th><th scope="col">PSI</th><th scope="col">0 · 0.10 · 0.25 · 0.5+</th><th scope="col">Reading</th><th scope="col">Bin that moved most (reference → this run)</th></tr>';
  return `<table class="stability"><caption class="muted">Population stability index per field, over fixed bins</caption><thead>${head}</thead><tbody>${comparison.psi.map(psiRow).join('')}</tbody></table>`;
}

const signedPoints = (change: number | null) =>
  change === null
    ? '–'
    : `${change > 0 ? '+' : change < 0 ? '−' : '±'}${(Math.abs(change) * 100).toFixed(1)} pts`;

function shareRows(changes: readonly ShareChange[], code: boolean): string {
  return changes
    .map(
      (c) =>
        `<tr><th scope="row">${code ? `<code>${escapeHtml(c.name)}</code>` : escapeHtml(c.name)}</th><td>${formatShare(c.reference)}</td><td>${formatShare(c.current)}</td><td>${signedPoints(c.change)}</td></tr>`,
    )
    .join('');
}

function sharesTable(caption: string, changes: readonly ShareChange[], code = true): string {
  if (changes.length === 0) return `<p>${escapeHtml(caption)}: none in either run.</p>`;
  return `<table><caption class="muted">${escapeHtml(caption)}</caption><thead><tr><th scope="col"></th><th scope="col">Reference</th><th scope="col">This run</th><th scope="col">Change</th></tr></thead><tbody>${shareRows(changes, code)}</tbody></table>`;
}

/** The default dimensions with few cohorts; states and --group-by cohorts are in the JSON and `outlay compare`. */
const MEDIAN_DIMENSIONS = ['age_band', 'income_band', 'household_size', 'household_type'];

function medianRow(m: MedianChange): string {
  return `<tr><th scope="row">${escapeHtml(m.dimension)}: ${escapeHtml(m.cohort)}</th><td>${formatCount(m.reference_rows)} → ${formatCount(m.current_rows)}</td><td>${formatDollars(m.reference_median_psa)} → ${formatDollars(m.current_median_psa)}</td><td>${formatScore(m.reference_median_index)} → ${formatScore(m.current_median_index)}</td></tr>`;
}

function mediansTable(comparison: Comparison): string {
  const rows = comparison.cohort_medians.filter((m) => MEDIAN_DIMENSIONS.includes(m.dimension));
  return `<table><caption class="muted">Cohort medians, reference → this run (states and --group-by cohorts: summary JSON, outlay compare)</caption><thead><tr><th scope="col">Cohort</th><th scope="col">Households</th><th scope="col">Median PSA / month</th><th scope="col">Median index</th></tr></thead><tbody>${rows.map(medianRow).join('')}</tbody></table>`;
}

function referenceLine(comparison: Comparison): string {
  const { reference: r } = comparison;
  const shards = r.merged_shards === null ? '' : `, merged from ${r.merged_shards} shards`;
  return `<p>Reference: <code>${escapeHtml(r.input)}</code>${escapeHtml(shards)}, finished ${escapeHtml(r.finished_at)}, ${formatCount(r.rows_scored)} rows scored with model ${escapeHtml(r.model_version)}.
PSI under ${PSI_STABLE_BELOW} reads stable, ${PSI_STABLE_BELOW}–${PSI_SHIFTED_ABOVE} watch, over ${PSI_SHIFTED_ABOVE} shifted; the bins are fixed (docs/batch.md).</p>`;
}

export function comparisonSection(comparison: Comparison | undefined): string {
  if (comparison === undefined) return '';
  const warnings = comparison.warnings
    .map((w) => `<p class="warning" role="alert">${escapeHtml(w)}</p>`)
    .join('');
  const { reject_rate: rejects } = comparison;
  return `<section aria-labelledby="comparison"><h2 id="comparison">Compared with the reference run</h2>
${warnings}${referenceLine(comparison)}
${psiTable(comparison)}
<p>Reject rate ${formatShare(rejects.reference)} → ${formatShare(rejects.current)} (${signedPoints(rejects.change)}).</p>
${sharesTable('Rejected rows by reason, share of rows in', comparison.rejected_by_reason, false)}
${sharesTable('Reason codes, share of scored households', comparison.reason_codes)}
${sharesTable('Expense flags, share of scored households', comparison.expense_flags)}
${mediansTable(comparison)}
</section>`;
}
