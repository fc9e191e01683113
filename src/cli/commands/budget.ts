import type { CommandModule } from 'yargs';

// Placeholder wired into the CLI so that helpers can build in parallel; replaced by the real command.
export const budgetCommand: CommandModule = {
  command: 'budget',
  describe: 'budget (not built yet)',
  handler: () => {
    process.stderr.write('outlay budget: not built yet\n');
    process.exitCode = 1;
  },
};
