/**
 * The `outlay` command line. The one-off commands live in src/cli/commands, the batch job's (score over a
 * file, merge) in ../batch/cli and build-model beside this file, so that jobs/ depends on src/ and never the
 * reverse; this file only wires them into yargs. Handlers report their outcome through `process.exitCode`
 * (documented exit codes: 0 success, 1 failure, 2 invalid request; a batch's own in
 * ../batch/score/exit-codes.ts).
 */
import yargs, { type Argv, type CommandModule } from 'yargs';

/** Loads a command's module and adds the command to the parser. */
type LoadCommand = () => Promise<(cli: Argv) => Argv>;

/** yargs types each command by its own arguments; the parser only needs to be given it. */
const adding =
  <T>(command: CommandModule<object, T>) =>
  (cli: Argv): Argv =>
    cli.command(command);

/**
 * The commands in help order, each loaded only when needed: a command's modules stay in memory for the
 * whole run, and loading all eight made the main thread of `outlay score` ~20 MB larger (engine, keys,
 * report merging, sample generation) for nothing.
 */
const COMMANDS: Record<string, LoadCommand> = {
  score: async () => adding((await import('../batch/cli/score.js')).scoreCommand),
  budget: async () => adding((await import('../../src/cli/commands/budget.js')).budgetCommand),
  model: async () => adding((await import('../../src/cli/commands/model.js')).modelCommand),
  serve: async () => adding((await import('../../src/cli/commands/serve.js')).serveCommand),
  keys: async () => adding((await import('../../src/cli/commands/keys.js')).keysCommand),
  merge: async () => adding((await import('../batch/cli/merge.js')).mergeCommand),
  compare: async () => adding((await import('../batch/cli/compare.js')).compareCommand),
  sample: async () => adding((await import('../../src/cli/commands/sample.js')).sampleCommand),
  'build-model': async () => adding((await import('./build-model.js')).buildModelCommand),
};

/** The named command alone when the arguments start with one; otherwise all (help, or an unknown command). */
function commandsFor(argv: readonly string[]): Promise<((cli: Argv) => Argv)[]> {
  const named = argv[0] === undefined ? undefined : Object.hasOwn(COMMANDS, argv[0]) ? argv[0] : undefined;
  const loaders = named === undefined ? Object.values(COMMANDS) : [COMMANDS[named]!];
  return Promise.all(loaders.map((load) => load()));
}

export async function main(argv: string[]): Promise<number> {
  process.exitCode = undefined;
  try {
    const cli = yargs(argv).scriptName('outlay').usage('$0 <command> [options]');
    for (const addCommand of await commandsFor(argv)) addCommand(cli);
    await cli
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
