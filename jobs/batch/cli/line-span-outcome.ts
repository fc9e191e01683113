/**
 * What records spanning several lines change in how `outlay score` ends (jobs/batch/io/line-spans.ts):
 * a log line saying how many and where, and the reject rate counted in lines as well as rows.
 */
import type { Logger } from 'pino';
import { describeRanges } from '../io/line-spans.js';
import type { RunCounts } from '../score/exit-codes.js';
import type { ScoreJobResult } from '../score/job.js';

/**
 * The counts --max-reject-rate is held to: every line a rejected record swallowed counts as a row in and a
 * row rejected (an unclosed quote at row 1,000 of 100,000 is 99,001 lines rejected, not one row of 1,000).
 */
export function countedInLines(result: ScoreJobResult): RunCounts {
  const swallowed = result.lineSpans?.swallowedLines ?? 0;
  return { rowsIn: result.rowsIn + swallowed, rowsRejected: result.rowsRejected + swallowed };
}

/**
 * A log line naming the records that spanned several lines, if there were any: a warning when rejected
 * ones swallowed lines, else information (a quoted field may legitimately hold a line break).
 */
export function logLineSpans(result: ScoreJobResult, logger: Logger): void {
  const spans = result.lineSpans;
  if (spans === undefined || spans.multilineRecords === 0) return;
  const level = spans.swallowedLines > 0 ? 'warn' : 'info';
  logger[level](
    {
      multilineRecords: spans.multilineRecords,
      ranges: spans.ranges,
      swallowedLines: spans.swallowedLines,
    },
    `${spans.multilineRecords} records spanned several lines (${describeRanges(spans)}); ${spans.swallowedLines} lines of them were rejected beyond their first and count toward the reject rate`,
  );
}
