/**
 * Records of a CSV input that span several physical lines: a quoted field holding a line break, which a
 * real export may embed (an address) and a stray quote fakes (a quote opened at one row and closed five
 * lines later folds five households into one record). The job reports how many there were and where, and
 * counts the lines a rejected record swallowed toward the reject rate, so that an unclosed quote that
 * swallows the rest of the file cannot pass as one reject among many rows.
 */

/** Line ranges listed at most (the count is always exact). */
export const MAX_LISTED_RANGES = 20;

/** The 1-based, inclusive physical lines of one record. */
export type LineRange = readonly [first: number, last: number];

export interface LineSpanReport {
  /** Records (rows) that span more than one line, rejected or not. */
  readonly multilineRecords: number;
  /** The first MAX_LISTED_RANGES of their line ranges, in file order. */
  readonly ranges: readonly LineRange[];
  /** Lines beyond the first of every rejected record spanning lines: the rows they may have held. */
  readonly swallowedLines: number;
}

export class LineSpans {
  private count = 0;
  private readonly listed: LineRange[] = [];
  private swallowed = 0;

  /** A record on lines `first`–`last`; `rejected` when it goes to the rejects file whatever its values. */
  add(first: number, last: number, rejected: boolean): void {
    if (last <= first) return;
    this.count++;
    if (this.listed.length < MAX_LISTED_RANGES) this.listed.push([first, last]);
    if (rejected) this.swallowed += last - first;
  }

  report(): LineSpanReport {
    return { multilineRecords: this.count, ranges: [...this.listed], swallowedLines: this.swallowed };
  }
}

/** `lines 12-17, 40-41 and 3 more`, for a log line or message. */
export function describeRanges(report: LineSpanReport): string {
  const listed = report.ranges.map(([first, last]) => `${first}-${last}`).join(', ');
  const more = report.multilineRecords - report.ranges.length;
  return `lines ${listed}${more > 0 ? ` and ${more} more` : ''}`;
}
