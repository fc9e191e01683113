/**
 * `outlay compare REFERENCE SUMMARY`: the comparison `outlay score --reference` adds to a summary, of two
 * summary files (two months, two cohorts), printed as text or JSON; nothing is scored or written.
 */
import type { CommandModule } from 'yargs';
import { compareSummaries } from '../report/comparison.js';
import { comparisonText } from '../report/comparison-text.js';
import { readSummary } from '../report/read-summary.js';

interface CompareArgs {
  reference: string;
  summary: string;
  json: boolean;
}

export const compareCommand: CommandModule<object, CompareArgs> = {
  command: 'compare <reference> <summary>',
  describe:
    "Compare a run's summary.json with a reference run's: PSI per field, reject rate, reason codes, flags, cohort medians",
  builder: (yargs) =>
    yargs
      .positional('reference', {
        type: 'string',
        demandOption: true,
        describe: "the reference run's summary.json (e.g. last month's)",
      })
      .positional('summary', {
        type: 'string',
        demandOption: true,
        describe: "the summary.json to compare with it (e.g. tonight's)",
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print the comparison as JSON (the shape of summary.json\'s "comparison")',
      })
      .example(
        '$0 compare october/households.summary.json out/households.summary.json',
        'tonight against October',
      ),
  handler: async (args) => {
    const [reference, summary] = await Promise.all([readSummary(args.reference), readSummary(args.summary)]);
    const comparison = compareSummaries(summary, reference);
    process.stdout.write(args.json ? `${JSON.stringify(comparison, null, 2)}\n` : comparisonText(comparison));
  },
};
