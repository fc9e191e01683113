import type { CommandModule } from 'yargs';

// Placeholder wired into the CLI so that helpers can build in parallel; replaced by the real command.
export const sampleCommand: CommandModule = {
  command: 'sample',
  describe: 'sample (not built yet)',
  handler: () => {
    process.stderr.write('outlay sample: not built yet\n');
    process.exitCode = 1;
  },
};
