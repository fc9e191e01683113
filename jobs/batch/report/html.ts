/**
 * `<name>.report.html`: the summary as one self-contained page for a credit analyst. Inline CSS and SVG
 * only; a Content-Security-Policy forbids scripts and every network fetch, so the file can be mailed,
 * archived and opened offline. Every string from the input (cohort values, reasons, file names) is escaped.
 */
import { basename, extname } from 'node:path';
import { AGE_BANDS, HOUSEHOLD_SIZE_BANDS, INCOME_BANDS } from './cohorts.js';
import { columnsSection } from './columns-section.js';
import { COMPARISON_STYLE, comparisonSection } from './comparison-section.js';
import { PERCENTILES } from './count-map.js';
import { escapeHtml, formatCount, formatDollars, formatScore, formatShare } from './format.js';
import { indexSection, MIN_READABLE_COHORT, tooSmallMark } from './index-section.js';
import { lendingSection } from './lending-section.js';
import { lineSpansSection } from './line-spans-section.js';
import type { Cohort, CohortStats, DimensionSummary, Percentiles, Summary } from './summary-schema.js';
import {
  COLORS,
  groupedBarChart,
  histogramChart,
  rangeStrip,
  type StripScale,
  shareBar,
  stackedStrip,
} from './svg.js';

/** Beyond this many cohorts in one dimension the table shows the largest ones and says how many it left out. */
const MAX_COHORT_ROWS = 50;

const DIMENSION_TITLES: Readonly<Record<string, string>> = {
  state: 'By state',
  age_band: 'By age of the reference person',
  income_band: 'By net (take-home) annual income',
  household_size: 'By household size',
  household_type: 'By household type',
};

const STYLE = `
:root { color-scheme: light; --ink: #1f2937; --muted: #6b7280; --rule: #e5e7eb; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--ink); background: #fff; }
main { max-width: 1100px; margin: 0 auto; padding: 24px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 32px 0 8px; border-bottom: 1px solid var(--rule); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 20px 0 6px; }
p, li { max-width: 80ch; }
.muted { color: var(--muted); }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 12px; margin: 16px 0 0; }
.card { border: 1px solid var(--rule); border-radius: 6px; padding: 10px 12px; }
.card dt { color: var(--muted); font-size: 12px; }
.card dd { margin: 2px 0 0; font-size: 22px; font-weight: 600; font-variant-numeric: tabular-nums; }
table { border-collapse: collapse; margin: 8px 0; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--rule); text-align: right; vertical-align: middle; }
th { font-size: 12px; color: var(--muted); font-weight: 600; }
tbody th { font-size: inherit; color: var(--ink); }
table.cohorts { width: 100%; }
.too-small { color: var(--muted); font-weight: normal; font-style: italic; white-space: nowrap; }
table.cohorts tbody th { white-space: nowrap; }
.caveat { border-left: 3px solid var(--rule); padding-left: 10px; }
th:first-child, td:first-child { text-align: left; }
td.chart-cell { padding: 2px 8px; }
.chart { max-width: 100%; height: auto; }
.strip { display: block; }
.tick { font-size: 11px; fill: var(--muted); }
.value { font-size: 11px; fill: var(--ink); }
.axis-title { font-size: 12px; fill: var(--ink); }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 12px; color: var(--muted); }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: baseline; }
code { font-size: 12px; }
@media print {
  body { font-size: 10pt; }
  main { max-width: none; padding: 0; }
  section, table, svg { break-inside: avoid; }
  * { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
}
`;

const ordinal = (n: number) => (n === 1 ? '1st' : `${n}th`);
const percentileColumns = PERCENTILES.map((p) => ({
  key: `p${p}` as const,
  label: p === 50 ? 'median' : ordinal(p),
}));

const median = (stats: { percentiles: Percentiles | null }) => stats.percentiles?.p50 ?? null;

function card(label: string, value: string): string {
  return `<div class="card"><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd></div>`;
}

function headline(summary: Summary): string {
  const { counts, overall } = summary;
  return `<dl class="cards">${[
    card('Rows in', formatCount(counts.rows_in)),
    card('Scored', formatCount(counts.rows_scored)),
    card('Rejected', formatCount(counts.rows_rejected)),
    card('Mean PSA / month', formatDollars(overall.psa.mean)),
    card('Median PSA / month', formatDollars(median(overall.psa))),
    card('Negative PSA', formatShare(overall.psa.negative_share)),
    card('Median score', formatScore(median(overall.score))),
  ].join('')}</dl>`;
}

function percentileTable(
  rows: readonly { label: string; percentiles: Percentiles | null; format: (v: number | null) => string }[],
) {
  const head = `<tr><th scope="col">Percentile</th>${percentileColumns.map((c) => `<th scope="col">${c.label}</th>`).join('')}</tr>`;
  const body = rows
    .map(
      (row) =>
        `<tr><th scope="row">${escapeHtml(row.label)}</th>${percentileColumns
          .map((c) => `<td>${escapeHtml(row.format(row.percentiles?.[c.key] ?? null))}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  return `<table><caption class="muted">Nearest-rank percentiles</caption><thead>${head}</thead><tbody>${body}</tbody></table>`;
}

function psaSection(overall: CohortStats): string {
  const { psa } = overall;
  const chart =
    psa.histogram.length === 0
      ? '<p>No rows were scored.</p>'
      : histogramChart(psa.histogram, {
          id: 'psa-histogram',
          title: 'Distribution of Predicted Saving Ability',
          description: `Histogram of monthly PSA over ${formatCount(overall.rows)} scored households; bins from ${formatDollars(psa.min)} to ${formatDollars(psa.max)}, negative bins in red.`,
        });
  return `<section aria-labelledby="psa"><h2 id="psa">Predicted Saving Ability (monthly)</h2>
<p>Mean ${escapeHtml(formatDollars(psa.mean))}, minimum ${escapeHtml(formatDollars(psa.min))}, maximum ${escapeHtml(formatDollars(psa.max))};
${escapeHtml(formatCount(psa.negative_count))} households (${escapeHtml(formatShare(psa.negative_share))}) are predicted to spend more than they earn.</p>
${chart}
${percentileTable([{ label: 'PSA', percentiles: psa.percentiles, format: formatDollars }])}</section>`;
}

function scoreSection(overall: CohortStats): string {
  const bands = overall.score.bands;
  const chart = groupedBarChart(
    bands.map((band) => band.label),
    [
      { name: 'Outlay score', color: COLORS.positive, counts: bands.map((b) => b.count) },
      {
        name: 'Savings score',
        color: COLORS.secondary,
        counts: overall.savings_score.bands.map((b) => b.count),
      },
    ],
    {
      id: 'score-bands',
      title: 'Households by score band',
      description: `Share of scored households in each band (<60, 60–70, 70–80, 80–90, ≥90), for the main score and the savings score.`,
    },
  );
  return `<section aria-labelledby="scores"><h2 id="scores">Scores</h2>
<p>The main score rates cash flow from 0 to 100; the savings score counts the requested savings as a fixed expense.
Mean score ${escapeHtml(formatScore(overall.score.mean))}, mean savings score ${escapeHtml(formatScore(overall.savings_score.mean))}.</p>
${chart}
${percentileTable([
  { label: 'Score', percentiles: overall.score.percentiles, format: formatScore },
  { label: 'Savings score', percentiles: overall.savings_score.percentiles, format: formatScore },
])}</section>`;
}

function bandLegend(overall: CohortStats): string {
  return `<p class="legend">Score bands: ${overall.score.bands
    .map(
      (band, i) =>
        `<span><span class="swatch" style="background:${COLORS.bands[i]}"></span>${escapeHtml(band.label)}</span>`,
    )
    .join('')}</p>`;
}

/** One scale for all range strips of a table, so that cohorts can be compared by eye. */
function stripScale(cohorts: readonly Cohort[]): StripScale {
  const p10s = cohorts.flatMap((c) => (c.psa.percentiles ? [c.psa.percentiles.p10] : []));
  const p90s = cohorts.flatMap((c) => (c.psa.percentiles ? [c.psa.percentiles.p90] : []));
  return { min: Math.min(0, ...p10s), max: Math.max(0, ...p90s) };
}

function cohortRow(cohort: Cohort, scale: StripScale, id: string): string {
  const { psa, score } = cohort;
  const name = escapeHtml(cohort.value) + tooSmallMark(cohort.rows);
  const range = psa.percentiles
    ? rangeStrip(psa.percentiles, scale, {
        id: `${id}-range`,
        title: `PSA range of ${cohort.value}`,
        description: `10th to 90th percentile of monthly PSA, with the median marked.`,
      })
    : '';
  const negative =
    psa.negative_share === null
      ? ''
      : shareBar(psa.negative_share, {
          id: `${id}-negative`,
          title: `Negative PSA share of ${cohort.value}`,
          description: `${formatShare(psa.negative_share)} of households have a negative PSA.`,
        });
  const bands = stackedStrip(
    score.bands.map((band, i) => ({
      name: `score ${band.label}`,
      count: band.count,
      color: COLORS.bands[i] ?? COLORS.axis,
    })),
    {
      id: `${id}-bands`,
      title: `Score bands of ${cohort.value}`,
      description: 'Share of households in each score band.',
    },
  );
  return `<tr><th scope="row">${name}</th><td>${formatCount(cohort.rows)}</td><td>${formatDollars(psa.mean)}</td><td>${formatDollars(
    median(psa),
  )}</td><td class="chart-cell">${range}</td><td>${formatShare(psa.negative_share)}</td><td class="chart-cell">${negative}</td><td class="chart-cell">${bands}</td><td>${formatScore(
    median(score),
  )}</td><td>${formatScore(cohort.index.percentiles?.p50 ?? null)}</td><td>${formatShare(cohort.index.below_80_share)}</td></tr>`;
}

function dimensionTable(dimension: DimensionSummary, index: number): string {
  const title =
    dimension.kind === 'group_by'
      ? `By ${dimension.name} (--group-by)`
      : (DIMENSION_TITLES[dimension.name] ?? dimension.name);
  const shown =
    dimension.cohorts.length <= MAX_COHORT_ROWS
      ? dimension.cohorts
      : [...dimension.cohorts].sort((a, b) => b.rows - a.rows).slice(0, MAX_COHORT_ROWS);
  const omitted = dimension.cohorts.length - shown.length;
  const note =
    omitted > 0
      ? `<p class="muted">The ${MAX_COHORT_ROWS} largest of ${formatCount(dimension.cohorts.length)} cohorts are shown; all are in the summary JSON.</p>`
      : '';
  const scale = stripScale(shown);
  const head =
    '<tr><th scope="col">Cohort</th><th scope="col">Households</th><th scope="col">Mean PSA</th><th scope="col">Median PSA</th>' +
    '<th scope="col">PSA 10th–90th pct.</th><th scope="col" colspan="2">Negative PSA</th><th scope="col">Score bands</th><th scope="col">Median score</th>' +
    '<th scope="col">Median index</th><th scope="col">Index under 80</th></tr>';
  const rows = shown.map((cohort, i) => cohortRow(cohort, scale, `cohort-${index}-${i}`)).join('');
  return `<h3>${escapeHtml(title)}</h3>${note}<table class="cohorts"><thead>${head}</thead><tbody>${rows}</tbody></table>`;
}

function cohortSection(summary: Summary): string {
  return `<section aria-labelledby="cohorts"><h2 id="cohorts">Cohorts</h2>
<p>PSA range strips share one scale per table (the dark line is zero, the black mark the median).
Cohorts without the field in the input are shown as "unknown". Cohorts of fewer than ${MIN_READABLE_COHORT} households
are marked too small to read: one household more or less moves their figures by several points.</p>
${bandLegend(summary.overall)}
${summary.dimensions.map(dimensionTable).join('\n')}</section>`;
}

/** Where `outlay score` wrote the rejects: `<input name without extension>.rejects.csv` beside the report. */
const rejectsFileName = (input: string) =>
  `${input === '-' ? 'stdin' : basename(input, extname(input))}.rejects.csv`;

function rejectsSection(summary: Summary): string {
  const { counts, meta } = summary;
  if (counts.rows_rejected === 0) {
    return '<section aria-labelledby="rejects"><h2 id="rejects">Rejected rows</h2><p>No row was rejected.</p></section>';
  }
  const where =
    meta.merged_shards === null && meta.shard === null
      ? `<code>${escapeHtml(rejectsFileName(meta.input))}</code>, in the output directory of this report`
      : `the rejects file each shard wrote beside its own output (<code>${escapeHtml(rejectsFileName(meta.input))}</code> in each shard's output directory)`;
  const rows = Object.entries(counts.rejected_by_reason)
    .sort(([, a], [, b]) => b - a)
    .map(
      ([reason, count]) =>
        `<tr><td>${escapeHtml(reason)}</td><td>${formatCount(count)}</td><td>${formatShare(count / counts.rows_in)}</td></tr>`,
    )
    .join('');
  return `<section aria-labelledby="rejects"><h2 id="rejects">Rejected rows</h2>
<p>${formatCount(counts.rows_rejected)} of ${formatCount(counts.rows_in)} rows (${formatShare(counts.rows_rejected / counts.rows_in)}) were not scored.
Every rejected row is listed with its 1-based input row number, its original fields and the reason in ${where}.</p>
<table><thead><tr><th scope="col">Reason</th><th scope="col">Rows</th><th scope="col">Share of rows in</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function runDescription(meta: Summary['meta']): string {
  if (meta.shard !== null) return `shard ${meta.shard.index} of ${meta.shard.count}`;
  if (meta.merged_shards !== null) return `merged from ${meta.merged_shards} shard summaries`;
  return 'single run';
}

const bandList = (bands: readonly { label: string }[]) => bands.map((b) => escapeHtml(b.label)).join(', ');

/** The summary's timing keys as a reader names them. */
const PHASE_LABELS: Readonly<Record<string, string>> = {
  engineReadyMs: 'starting the engine',
  scoringMs: 'scoring',
  totalMs: 'whole run',
};

function aboutSection(summary: Summary): string {
  const { meta } = summary;
  const timings = Object.entries(meta.timings)
    .map(
      ([phase, ms]) =>
        `<tr><th scope="row">Time: ${escapeHtml(PHASE_LABELS[phase] ?? phase)}</th><td>${formatCount(ms)} ms</td></tr>`,
    )
    .join('');
  return `<section aria-labelledby="about"><h2 id="about">About this report</h2>
<table><tbody>
<tr><th scope="row">Input</th><td>${escapeHtml(meta.input)}</td></tr>
<tr><th scope="row">Run</th><td>${escapeHtml(runDescription(meta))}</td></tr>
<tr><th scope="row">Model version</th><td>${escapeHtml(meta.model_version)}</td></tr>
<tr><th scope="row">Engine</th><td>${escapeHtml(meta.engine === 'local' ? 'built-in (local)' : 'remote API')}</td></tr>
<tr><th scope="row">Score basis and profile</th><td>${escapeHtml(meta.basis)}, ${escapeHtml(meta.score_profile)}</td></tr>
<tr><th scope="row">Started</th><td>${escapeHtml(meta.started_at)}</td></tr>
<tr><th scope="row">Finished</th><td>${escapeHtml(meta.finished_at)}</td></tr>
${timings}
</tbody></table>
<ul>
<li>PSA (Predicted Saving Ability) is monthly, in whole dollars, and may be negative.</li>
<li>Percentiles are nearest-rank: the P-th percentile is the value at rank ⌈P·n/100⌉ of the n sorted values, so it is always an observed value.
Means are exact (from integer sums) and rounded to cents.</li>
<li>The histogram's bins cover the 1st to 99th percentile; households beyond them are counted in the open-ended first and last bins.</li>
<li>Bands are half-open [from, to). Age: ${bandList(AGE_BANDS)}. Net income: ${bandList(INCOME_BANDS)}. Household size: ${bandList(HOUSEHOLD_SIZE_BANDS)}.</li>
<li>Statistics cover scored rows; rejected rows count only in the totals and the reasons above.</li>
</ul></section>`;
}

export function renderReport(summary: Summary): string {
  const { meta } = summary;
  const inputName = basename(meta.input);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>PSA report: ${escapeHtml(inputName)}</title>
<style>${STYLE}${summary.comparison === undefined ? '' : COMPARISON_STYLE}</style>
</head>
<body>
<main>
<header>
<h1>Predicted Saving Ability report</h1>
<p class="muted">${escapeHtml(inputName)} · model ${escapeHtml(meta.model_version)} · ${escapeHtml(meta.engine)} engine · ${escapeHtml(
    runDescription(meta),
  )} · finished ${escapeHtml(meta.finished_at)}</p>
<p class="caveat">Outlay is a budgeting model built from public survey data (docs/model.md): its scores are
<strong>not validated on credit outcomes</strong>, and neither they nor this report are a consumer report: they
hold nothing about a person beyond the row they were given.</p>
</header>
${headline(summary)}
${comparisonSection(summary.comparison)}
${psaSection(summary.overall)}
${scoreSection(summary.overall)}
${indexSection(summary)}
${cohortSection(summary)}
${lendingSection(summary.lending)}
${rejectsSection(summary)}${lineSpansSection(summary.line_spans)}
${columnsSection(summary)}
${aboutSection(summary)}
</main>
</body>
</html>
`;
}
