import { extname } from 'node:path';
import type { CommandModule } from 'yargs';
import { BAD_ROW_KINDS } from '../../sample/bad-rows.js';
import { type SampleFormat, writeSample } from '../../sample/write.js';

interface SampleArgs {
  rows: number;
  out: string;
  format: SampleFormat | undefined;
  seed: number;
  'bad-rows': number;
}

const formatOf = (out: string, format: SampleFormat | undefined): SampleFormat =>
  format ?? (extname(out).toLowerCase() === '.arrow' ? 'arrow' : 'csv');

export const sampleCommand: CommandModule<object, SampleArgs> = {
  command: 'sample',
  describe:
    'Write N realistic synthetic households (CE 2014 microdata, 2025 dollars), deterministic per seed',
  builder: (yargs) =>
    yargs
      .option('rows', { type: 'number', demandOption: true, describe: 'Number of households to write' })
      .option('out', { type: 'string', demandOption: true, describe: 'Output file' })
      .option('format', {
        choices: ['csv', 'arrow'] as const,
        describe: 'csv, or arrow (Arrow IPC file); default: arrow when --out ends in .arrow, else csv',
      })
      .option('seed', { type: 'number', default: 1, describe: 'Seed: the same seed writes the same bytes' })
      .option('bad-rows', {
        type: 'number',
        default: 0,
        describe: `Deliberately bad rows to include (kinds in order: ${BAD_ROW_KINDS.map((k) => k.name).join(', ')})`,
      })
      .example(
        '$0 sample --rows 1000 --seed 2026 --bad-rows 10 --out sample-data/households.csv',
        'the committed sample',
      )
      .example('$0 sample --rows 10000000 --out /tmp/h.arrow', 'a large clean benchmark input'),
  handler: async (argv) => {
    const format = formatOf(argv.out, argv.format);
    const started = performance.now();
    await writeSample({ rows: argv.rows, seed: argv.seed, badRows: argv['bad-rows'], out: argv.out, format });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stderr.write(
      `outlay sample: wrote ${argv.rows} rows (${argv['bad-rows']} bad) to ${argv.out} as ${format} in ${seconds}s\n`,
    );
  },
};
