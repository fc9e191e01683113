import type { CommandModule } from 'yargs';

// Placeholder wired into the CLI so that helpers can build in parallel; replaced by the real command.
export const mergeCommand: CommandModule = {
  command: 'merge',
  describe: 'merge (not built yet)',
  handler: () => {
    process.stderr.write('outlay merge: not built yet\n');
    process.exitCode = 1;
  },
};
