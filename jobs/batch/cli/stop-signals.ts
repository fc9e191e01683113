/**
 * SIGTERM (a scheduler or `docker stop`) and SIGINT (Ctrl-C) stop `outlay score` (and `outlay merge`) cleanly: the first one
 * aborts the returned signal, and the job stops reading, writes what is in flight, checkpoints (--resume)
 * and exits 128 + the signal's number. A second one exits at once, leaving the temporary files (and, with
 * --resume, the last checkpoint) as a kill would. Without a handler, Node as a container's PID 1 ignores
 * SIGTERM, and elsewhere dies without a log line.
 */
import type { Logger } from 'pino';
import { INTERRUPTING_SIGNALS, type InterruptingSignal, interruptedExitCode } from '../score/exit-codes.js';

export interface StopSignals {
  readonly signal: AbortSignal;
  /** Removes the handlers, once the job has ended. */
  dispose(): void;
}

export function onStopSignals(
  logger: Logger,
  stopping = 'stopping: no further rows are read; the rows in flight are written',
): StopSignals {
  const controller = new AbortController();
  const handle = (signal: InterruptingSignal) => {
    if (controller.signal.aborted) {
      logger.error({ signal }, 'second signal: exiting now, temporary files left as they are');
      process.exit(interruptedExitCode(signal));
    }
    logger.warn({ signal }, stopping);
    controller.abort(signal);
  };
  for (const name of INTERRUPTING_SIGNALS) process.on(name, handle);
  return {
    signal: controller.signal,
    dispose: () => {
      for (const name of INTERRUPTING_SIGNALS) process.off(name, handle);
    },
  };
}
