/**
 * The report's account of the input's columns: which contract field each supplied, and which were passed
 * through unused (by name, or declared with `--pass-through`), so a reader sees what the scores rest on.
 */
import { escapeHtml, formatCount } from './format.js';
import type { Summary } from './summary-schema.js';

type ColumnUses = NonNullable<Summary['meta']['columns']>;

const useText = (use: ColumnUses[number]): string =>
  use.field !== null
    ? `used as <code>${escapeHtml(use.field)}</code>`
    : use.declared
      ? 'passed through unused (--pass-through)'
      : 'passed through unused';

export function columnsSection(summary: Summary): string {
  const { columns, zips_padded: zipsPadded } = summary.meta;
  if (columns === undefined) return '';
  const rows = columns
    .map((use) => `<tr><th scope="row">${escapeHtml(use.column)}</th><td>${useText(use)}</td></tr>`)
    .join('');
  const padded =
    zipsPadded === undefined || zipsPadded === 0
      ? ''
      : `<p>ZIPs padded: ${escapeHtml(formatCount(zipsPadded))} scored ${zipsPadded === 1 ? 'row' : 'rows'} had a ZIP that had lost its leading zeros (stored as a 3- or 4-digit number, or a CSV cell of four digits); it was read with them restored (<code>2134</code> as <code>02134</code>).</p>`;
  return `<section aria-labelledby="columns"><h2 id="columns">Input columns</h2>
<p>How each column of the input was used. Columns passed through are copied to the scored file and play no part in the scores.</p>
<table class="columns"><thead><tr><th scope="col">Column</th><th scope="col">Use</th></tr></thead><tbody>${rows}</tbody></table>
${padded}</section>`;
}
