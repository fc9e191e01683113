/**
 * How `outlay score` over a file ends, for a scheduler to act on (the table is in docs/batch.md). An
 * interrupted run exits 128 + the signal's number, as a shell reports a process killed by that signal.
 */
import { constants } from 'node:os';

export const EXIT_SUCCESS = 0;
/** Nothing published: the input could not be read, the outputs not written, the scorer not started… */
export const EXIT_FAILURE = 1;
/** Every row is in the scored or the rejects file, and the reject rate is within --max-reject-rate. */
export const EXIT_REJECTS = 3;
/** Outputs published, but more rows were rejected than --max-reject-rate allows. */
export const EXIT_REJECT_RATE_EXCEEDED = 4;
/**
 * Outputs published, but the index's PSI against `--reference` is above `--max-psi`: tonight's population
 * or scores have moved from the reference run's (`outlay score` and `outlay merge`).
 */
export const EXIT_PSI_EXCEEDED = 5;

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
