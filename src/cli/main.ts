/**
 * The `outlay` command line. Each command lives in its own module under ./commands; this file only wires
 * them into yargs. Handlers report their outcome through `process.exitCode` (documented exit codes:
 * 0 success, 1 failure, 2 invalid request, 3 batch finished with rejects).
 */
import yargs from 'yargs';
import { budgetCommand } from './commands/budget.js';
import { buildModelCommand } from './commands/build-model.js';
import { keysCommand } from './commands/keys.js';
import { mergeCommand } from './commands/merge.js';
import { modelCommand } from './commands/model.js';
import { sampleCommand } from './commands/sample.js';
import { scoreCommand } from './commands/score.js';
import { serveCommand } from './commands/serve.js';

export async function main(argv: string[]): Promise<number> {
  process.exitCode = undefined;
  try {
    await yargs(argv)
      .scriptName('outlay')
      .usage('$0 <command> [options]')
      .command(scoreCommand)
      .command(budgetCommand)
      .command(modelCommand)
      .command(serveCommand)
      .command(keysCommand)
      .command(mergeCommand)
      .command(sampleCommand)
      .command(buildModelCommand)
      .demandCommand(1, 'Name a command (see --help).')
      .strict()
      .help()
      .alias('h', 'help')
      .version()
      .wrap(Math.min(110, process.stdout.columns ?? 110))
      .fail((message, error) => {
        if (error) throw error;
        throw new UsageError(message);
      })
      .parseAsync();
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`outlay: ${error.message}\nRun 'outlay --help' for usage.\n`);
      return 1;
    }
    process.stderr.write(`outlay: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}

class UsageError extends Error {}
