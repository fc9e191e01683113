/**
 * The report's account of the index: what the scale means, how the index and its percentile are
 * distributed, and how often each reason code and expense flag was given (docs/scores.md).
 */
import { escapeHtml, formatCount, formatScore, formatShare } from './format.js';
import type { CohortStats, HistogramBin, Summary } from './summary-schema.js';
import { COLORS, groupedBarChart } from './svg.js';

/**
 * Cohorts with fewer households than this are marked too small to read: a median or a share of under 30
 * rows moves by several points with a single household (the usual floor for a reportable cell).
 */
export const MIN_READABLE_COHORT = 30;

/** The mark beside a cohort too small to read, empty for any other. */
export const tooSmallMark = (rows: number): string =>
  rows < MIN_READABLE_COHORT
    ? ` <span class="too-small">too small to read (under ${MIN_READABLE_COHORT} households)</span>`
    : '';

const SCALE_TEXT = `<p>The index is the main score's formula without its limits:
<strong>80 is break-even</strong> (take-home pay exactly covers the stated expenses and what comparable
households spend on the rest), and <strong>one point is 1&nbsp;% of take-home pay</strong> saved (above 80)
or short (below 80) over a year. The contract's score is the same number <strong>clamped to 0–100</strong>;
the index is not clamped, so it keeps ranking households the score ties at 0 or 100. The percentile says
where an index sits among US households (BLS Consumer Expenditure Survey households scored with no stated
expenses; docs/scores.md).</p>`;

const pointsLabel = (bin: HistogramBin): string => {
  if (bin.from === null) return `under ${formatScore(bin.to)}`;
  if (bin.to === null) return `${formatScore(bin.from)}+`;
  return `${formatScore(bin.from)}–${formatScore(bin.to)}`;
};

function indexChart(overall: CohortStats): string {
  const { histogram } = overall.index;
  if (histogram.length === 0) return '<p>No rows were scored.</p>';
  return groupedBarChart(
    histogram.map(pointsLabel),
    [{ name: 'Index', color: COLORS.positive, counts: histogram.map((bin) => bin.count) }],
    {
      id: 'index-histogram',
      title: 'Distribution of the index',
      description: `Households by index, in points; 80 is break-even. ${formatCount(overall.index.below_80_count)} households are under 80.`,
    },
  );
}

function percentileChart(overall: CohortStats): string {
  const { deciles } = overall.percentile;
  return groupedBarChart(
    deciles.map((_, i) => `${10 * i}–${10 * (i + 1)}`),
    [{ name: 'Percentile', color: COLORS.secondary, counts: deciles }],
    {
      id: 'percentile-deciles',
      title: 'Households by percentile decile',
      description:
        'Households by where their index sits among US households; a file like the US population fills each decile alike.',
    },
  );
}

/** Rows per code, most frequent first, with the share of scored rows. */
function frequencyTable(caption: string, counts: Readonly<Record<string, number>>, rows: number): string {
  const entries = Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  if (entries.length === 0) return `<p>${escapeHtml(caption)}: none.</p>`;
  const body = entries
    .map(
      ([code, count]) =>
        `<tr><th scope="row"><code>${escapeHtml(code)}</code></th><td>${formatCount(count)}</td><td>${formatShare(count / rows)}</td></tr>`,
    )
    .join('');
  return `<table class="frequencies"><caption>${escapeHtml(caption)}</caption><thead><tr><th scope="col">Code</th><th scope="col">Households</th><th scope="col">Share of scored</th></tr></thead><tbody>${body}</tbody></table>`;
}

export function indexSection(summary: Summary): string {
  const { overall } = summary;
  const { index, percentile } = overall;
  return `<section aria-labelledby="index"><h2 id="index">What the index means</h2>
${SCALE_TEXT}
<p>Median index ${escapeHtml(formatScore(index.percentiles?.p50 ?? null))}; ${escapeHtml(formatCount(index.below_80_count))} households
(${escapeHtml(formatShare(index.below_80_share))}) are under break-even. Median percentile ${escapeHtml(
    formatScore(percentile.percentiles?.p50 ?? null),
  )}. Scored on the ${escapeHtml(summary.meta.basis)} basis with the ${escapeHtml(summary.meta.score_profile)} profile.</p>
${indexChart(overall)}
${percentileChart(overall)}
${frequencyTable('Reason codes (a household counts once for each of its codes)', summary.reason_codes, overall.rows)}
${frequencyTable('Expense flags', summary.expense_flags, overall.rows)}
</section>`;
}
