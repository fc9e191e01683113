import type { CommandModule } from 'yargs';

// Placeholder wired into the CLI so that helpers can build in parallel; replaced by the real command.
export const buildModelCommand: CommandModule = {
  command: 'build-model',
  describe: 'build-model (not built yet)',
  handler: () => {
    process.stderr.write('outlay build-model: not built yet\n');
    process.exitCode = 1;
  },
};
