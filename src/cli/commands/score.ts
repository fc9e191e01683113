import type { CommandModule } from 'yargs';

// Placeholder wired into the CLI so that helpers can build in parallel; replaced by the real command.
export const scoreCommand: CommandModule = {
  command: 'score',
  describe: 'score (not built yet)',
  handler: () => {
    process.stderr.write('outlay score: not built yet\n');
    process.exitCode = 1;
  },
};
