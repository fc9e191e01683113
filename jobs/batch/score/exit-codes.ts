/**
 * How `outlay score` over a file ends, for a scheduler to act on (the table is in docs/batch.md). An
 * interrupted run exits 128 + the signal's number, as a shell reports a process killed by that signal.
 */
import { constants } from 'node:os';

export const EXIT_SUCCESS = 0;
/** Nothing published: the input could not be read, the outputs not written, the scorer not started… */
export const EXIT_FAILURE = 1;
/** Every row is in the scored or the rejects file, and the reject rate is within --max-reject-rate (or its default). */
export const EXIT_REJECTS = 3;
/** Outputs published, but more rows were rejected than --max-reject-rate (or its default) allows. */
export const EXIT_REJECT_RATE_EXCEEDED = 4;
/**
 * Outputs published, but the index's PSI against `--reference` is above `--max-psi`: tonight's population
 * or scores have moved from the reference run's (`outlay score` and `outlay merge`).
 */
export const EXIT_PSI_EXCEEDED = 5;

/**
 * The reject rate above which a run exits 4 when `--max-reject-rate` is not given: more than half the rows
 * rejected (every row, in the usual case) means the file was read wrongly as a whole (a wrong delimiter or
 * encoding, another system's export), not that a few records are bad, and such a run is no success.
 */
export const DEFAULT_MAX_REJECT_RATE = 0.5;

/** `--max-reject-rate` (of `outlay score` and `outlay merge`) checked: a fraction from 0 to 1, or not given. */
export function checkMaxRejectRate(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!(value >= 0 && value <= 1))
    throw new Error(`--max-reject-rate must be a fraction from 0 to 1, got ${value}`);
  return value;
}

/** A run's counts, as the job and `outlay merge` both have them. */
export interface RunCounts {
  readonly rowsIn: number;
  readonly rowsRejected: number;
}

/**
 * How a run that published its outputs ends: 0 without rejects, 3 with rejects within `maxRejectRate`
 * (default DEFAULT_MAX_REJECT_RATE), 4 above it. `outlay merge` applies it to the merged counts, so a
 * sharded run ends as the single run would.
 */
export function publishedExitCode(
  counts: RunCounts,
  maxRejectRate: number = DEFAULT_MAX_REJECT_RATE,
): { code: number; rejectRate: number } {
  const rejectRate = counts.rowsIn === 0 ? 0 : counts.rowsRejected / counts.rowsIn;
  if (counts.rowsRejected === 0) return { code: EXIT_SUCCESS, rejectRate };
  return { code: rejectRate <= maxRejectRate ? EXIT_REJECTS : EXIT_REJECT_RATE_EXCEEDED, rejectRate };
}

/**
 * A run's exit code from its rejects' code and the comparison's (null: no `--max-psi` breach): a reject
 * rate above its limit outranks a PSI above its own, rejects being a problem of the data itself.
 */
export const combinedExitCode = (rejects: number, psi: number | null): number =>
  rejects === EXIT_REJECT_RATE_EXCEEDED ? rejects : (psi ?? rejects);

/**
 * `--scored -`: standard output was closed by its reader before the stream ended (`… | head`), 128 + 13 as a
 * shell reports a process killed by SIGPIPE; nothing published.
 */
export const EXIT_BROKEN_PIPE = 128 + constants.signals.SIGPIPE;

export const INTERRUPTING_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
export type InterruptingSignal = (typeof INTERRUPTING_SIGNALS)[number];

/** 143 for SIGTERM, 130 for SIGINT. */
export const interruptedExitCode = (signal: InterruptingSignal) => 128 + constants.signals[signal];

/** A run stopped by a signal: nothing published; with --resume its progress is kept for the next run. */
export class JobInterrupted extends Error {
  constructor(
    readonly signal: InterruptingSignal,
    readonly rowsDone: number,
    readonly resumable: boolean,
  ) {
    super(
      `interrupted by ${signal} after ${rowsDone} input rows; nothing published${
        resumable ? '; run again with --resume to continue from there' : ''
      }`,
    );
  }
}

/** Standard output (`--scored -`) went away before the scored stream ended: the reader has part of it. */
export class ScoredStreamClosed extends Error {
  constructor() {
    super(
      'standard output was closed by its reader before the scored stream ended (broken pipe): the rows it received are incomplete; nothing published',
    );
  }
}
