/**
 * Progress on stderr: a one-line bar redrawn in place when stderr is a terminal (rows/s, rejects so far,
 * ETA when the input size is known), otherwise a structured log line every few seconds.
 */
import type { Logger } from 'pino';

export interface ProgressCounts {
  readonly rowsIn: number;
  readonly rowsRejected: number;
  /** Fraction of the input read, when its size is known. */
  readonly fraction: number | undefined;
}

export interface Progress {
  update(counts: ProgressCounts): void;
  done(): void;
}

const formatDuration = (seconds: number) => {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

export function createProgress(options: { bar: boolean; logger: Logger; now?: () => number }): Progress {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const interval = options.bar ? 200 : 5000;
  let last = started;
  let latest: ProgressCounts = { rowsIn: 0, rowsRejected: 0, fraction: undefined };

  const render = () => {
    const elapsed = (now() - started) / 1000;
    const rate = elapsed > 0 ? latest.rowsIn / elapsed : 0;
    const eta =
      latest.fraction !== undefined && latest.fraction > 0 ? elapsed * (1 / latest.fraction - 1) : undefined;
    if (options.bar) process.stderr.write(`\r\x1b[K${barLine(latest, rate, eta)}`);
    else {
      options.logger.info(
        {
          rowsIn: latest.rowsIn,
          rowsRejected: latest.rowsRejected,
          rowsPerSecond: Math.round(rate),
          etaSeconds: eta && Math.round(eta),
        },
        'progress',
      );
    }
  };

  return {
    update(counts) {
      latest = counts;
      const t = now();
      if (t - last >= interval) {
        last = t;
        render();
      }
    },
    done() {
      if (options.bar) {
        render();
        process.stderr.write('\n');
      }
    },
  };
}

/** The terminal's progress line: bar and percentage (when the input size is known), counts, rate, ETA. */
function barLine(counts: ProgressCounts, rate: number, eta: number | undefined): string {
  const { fraction } = counts;
  const percent = fraction === undefined ? '' : ` ${(fraction * 100).toFixed(1)}%`;
  const width = 24;
  const filled = fraction === undefined ? 0 : Math.round(fraction * width);
  const bar = fraction === undefined ? '' : ` [${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
  const etaText = eta === undefined ? '' : `, ETA ${formatDuration(eta)}`;
  return `${bar}${percent} ${counts.rowsIn.toLocaleString('en-US')} rows, ${Math.round(rate).toLocaleString('en-US')} rows/s, ${counts.rowsRejected.toLocaleString('en-US')} rejected${etaText}`;
}
