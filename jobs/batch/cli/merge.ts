import { type Logger, pino } from 'pino';
import type { CommandModule } from 'yargs';
import { type MergeResult, runMerge } from '../merge/merge-job.js';
import type { Summary } from '../report/summary.js';
import {
  checkMaxRejectRate,
  combinedExitCode,
  DEFAULT_MAX_REJECT_RATE,
  type InterruptingSignal,
  interruptedExitCode,
  publishedExitCode,
} from '../score/exit-codes.js';
import { judgeComparison, readReference, referenceOptions } from './reference.js';
import { onStopSignals } from './stop-signals.js';

interface MergeArgs {
  summaries: string[];
  out: string;
  name: string | undefined;
  rows: boolean;
  'max-reject-rate': number | undefined;
  reference: string | undefined;
  'max-psi': number | undefined;
}

export const mergeCommand: CommandModule<object, MergeArgs> = {
  command: 'merge <summaries..>',
  describe:
    'Combine the summary.json files of the shards of one run (--shard I/N) into one summary and report',
  builder: (yargs) =>
    yargs
      .positional('summaries', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'shard summary files',
      })
      .option('out', { type: 'string', default: 'out', describe: 'output directory' })
      .option('name', {
        type: 'string',
        describe:
          'output base name: writes <name>.summary.json and <name>.report.html (default: the input file name)',
      })
      .option('rows', {
        type: 'boolean',
        default: false,
        describe:
          "also merge the shards' scored and rejects files (beside each summary) into <name>.scored.* and <name>.rejects.csv, in shard order: the single run's files",
      })
      .option('max-reject-rate', {
        type: 'number',
        describe: `as for outlay score: exit 4 instead of 3 when more than this fraction of the merged rows is rejected (0 to 1; default: ${DEFAULT_MAX_REJECT_RATE})`,
      })
      .options(referenceOptions)
      .example('$0 merge shards/*/households.summary.json --out out', 'merge every shard of one run'),
  handler: async (args) => {
    const maxRejectRate = checkMaxRejectRate(args['max-reject-rate']);
    const reference = await readReference(args.reference, args['max-psi']);
    const logger = pino({ level: 'info', base: { command: 'merge' } }, pino.destination(2));
    const result = await mergeUnlessStopped(args, reference.summary, logger);
    if (result === undefined) return;
    const { counts } = result.summary;
    process.stdout.write(
      `Merged ${result.summary.meta.merged_shards} shard summaries: ${counts.rows_in} rows in, ${counts.rows_scored} scored, ${counts.rows_rejected} rejected\n` +
        `  ${result.summaryPath}\n  ${result.reportPath}\n`,
    );
    // The single run's exit code: 0, 3 with rejects within the rate, 4 above it, 5 the PSI above --max-psi.
    const rejects = publishedExitCode(
      { rowsIn: counts.rows_in, rowsRejected: counts.rows_rejected },
      maxRejectRate,
    ).code;
    process.exitCode = combinedExitCode(
      rejects,
      judgeComparison(result.summary.comparison, reference.maxPsi, logger),
    );
  },
};

/**
 * The merge, or undefined when SIGTERM or SIGINT stopped it: then nothing is published, its temporary
 * files are removed and the exit code is 128 + the signal's number, as for `outlay score`.
 */
async function mergeUnlessStopped(
  args: MergeArgs,
  reference: Summary | undefined,
  logger: Logger,
): Promise<MergeResult | undefined> {
  const stop = onStopSignals(logger, 'stopping: the merge publishes nothing and removes its files');
  try {
    return await runMerge({
      summaries: args.summaries,
      outDir: args.out,
      name: args.name,
      rows: args.rows,
      reference,
      stop: stop.signal,
    });
  } catch (error) {
    if (!stop.signal.aborted) throw error;
    const signal = stop.signal.reason as InterruptingSignal;
    logger.error({ signal }, 'merge interrupted: nothing published');
    process.exitCode = interruptedExitCode(signal);
    return undefined;
  } finally {
    stop.dispose();
  }
}
