/**
 * The report's lender-mode section, for a file that gives loans: the lending index's distribution over
 * the applicants with a loan, and the cut-off table, the share of them at or above each lending index
 * threshold, overall and by cohort (lending-summary.ts).
 */
import { DEFAULT_STRESS_MULTIPLIER } from '../../../src/contract/limits.js';
import { escapeHtml, formatCount, formatShare } from './format.js';
import type { LendingSummary } from './lending-summary.js';

const binLabel = ({ from, to }: { from: number | null; to: number | null }) =>
  from === null ? `under ${to}` : to === null ? `${from} or more` : `${from} to ${to}`;

function distributionTable(lending: LendingSummary): string {
  const { overall } = lending;
  const rows = overall.histogram
    .map(
      (bin) =>
        `<tr><td>${escapeHtml(binLabel(bin))}</td><td>${formatCount(bin.count)}</td><td>${formatShare(overall.rows === 0 ? null : bin.count / overall.rows)}</td></tr>`,
    )
    .join('');
  return `<table><caption>Lending index of the applicants with a loan</caption>
<thead><tr><th scope="col">Lending index</th><th scope="col">Applicants</th><th scope="col">Share</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function cutOffRow(label: string, cohort: { rows: number; shares: readonly (number | null)[] }): string {
  const cells = cohort.shares.map((share) => `<td>${formatShare(share)}</td>`).join('');
  return `<tr><th scope="row">${escapeHtml(label)}</th><td>${formatCount(cohort.rows)}</td>${cells}</tr>`;
}

function cutOffTable(lending: LendingSummary): string {
  const head = lending.thresholds.map((threshold) => `<th scope="col">≥ ${threshold}</th>`).join('');
  const width = lending.thresholds.length + 2;
  const body = [
    cutOffRow('All applicants with a loan', lending.overall),
    ...lending.dimensions.flatMap((dimension) => [
      `<tr><th scope="rowgroup" colspan="${width}">${escapeHtml(dimension.name)}</th></tr>`,
      ...dimension.cohorts.map((cohort) => cutOffRow(cohort.value, cohort)),
    ]),
  ].join('\n');
  return `<table><caption>Share of applicants at or above each lending index</caption>
<thead><tr><th scope="col">Cohort</th><th scope="col">Applicants</th>${head}</tr></thead><tbody>
${body}
</tbody></table>`;
}

/** The section, or nothing for a file without loans. */
export function lendingSection(lending: LendingSummary | undefined): string {
  if (lending === undefined) return '';
  return `<section aria-labelledby="lending"><h2 id="lending">Lender mode</h2>
<p>${formatCount(lending.overall.rows)} scored applicants gave a proposed loan. The lending index is the surplus after the loan's
payment, stressed ×${DEFAULT_STRESS_MULTIPLIER}, on the score's scale: 80 is a surplus of exactly 0, each point 1 % of take-home pay a year
(docs/scores.md, "Lender mode"). Not validated on credit outcomes; not a consumer report.</p>
${distributionTable(lending)}
${cutOffTable(lending)}</section>`;
}
