/**
 * The summary's and the report's account of CSV records that spanned several lines
 * (jobs/batch/io/line-spans.ts). Present only when there were any: the summary of every other run is
 * unchanged. `outlay merge` adds the shards' up (their line numbers are the file's), so a merged summary
 * says what the single run's does.
 */

import Type, { type Static } from '../../../src/vendor/typebox.js';
import { type LineSpanReport, MAX_LISTED_RANGES } from '../io/line-spans.js';
import { escapeHtml, formatCount } from './format.js';

export const LineSpansJson = Type.Object(
  {
    /** Records spanning more than one physical line, rejected or not. */
    multiline_records: Type.Integer({ minimum: 1 }),
    /** The first 20 of their [first, last] line ranges (1-based, inclusive), in file order. */
    ranges: Type.Array(Type.Tuple([Type.Integer({ minimum: 1 }), Type.Integer({ minimum: 1 })])),
    /** Lines beyond the first of every rejected one, counted toward --max-reject-rate. */
    swallowed_lines: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type LineSpansJson = Static<typeof LineSpansJson>;

/** `summary` with its `line_spans`, when records spanned several lines. */
export function withLineSpans<S extends object>(summary: S, spans: LineSpanReport | undefined): S {
  if (spans === undefined || spans.multilineRecords === 0) return summary;
  const line_spans: LineSpansJson = {
    multiline_records: spans.multilineRecords,
    ranges: spans.ranges.map(([first, last]) => [first, last]),
    swallowed_lines: spans.swallowedLines,
  };
  return { ...summary, line_spans };
}

/** The line spans of consecutive shards as the single run counts them; undefined when none had any. */
export function mergedLineSpans(shards: readonly (LineSpansJson | undefined)[]): LineSpanReport | undefined {
  const present = shards.filter((spans) => spans !== undefined);
  if (present.length === 0) return undefined;
  return {
    multilineRecords: present.reduce((total, spans) => total + spans.multiline_records, 0),
    ranges: present.flatMap((spans) => spans.ranges).slice(0, MAX_LISTED_RANGES),
    swallowedLines: present.reduce((total, spans) => total + spans.swallowed_lines, 0),
  };
}

/** The report's note on them, empty when there were none. */
export function lineSpansSection(spans: LineSpansJson | undefined): string {
  if (spans === undefined) return '';
  const listed = spans.ranges.map(([first, last]) => `${first}–${last}`).join(', ');
  const more = spans.multiline_records - spans.ranges.length;
  return `<section><h2>Records spanning several lines</h2><p>${escapeHtml(
    `${formatCount(spans.multiline_records)} records spanned several lines (a quoted field holding a line break, or a stray quote): lines ${listed}${more > 0 ? ` and ${formatCount(more)} more` : ''}. ${formatCount(spans.swallowed_lines)} lines of rejected ones beyond their first count toward the reject rate.`,
  )}</p></section>`;
}
