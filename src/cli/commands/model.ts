import type { CommandModule } from 'yargs';

// Placeholder wired into the CLI so that helpers can build in parallel; replaced by the real command.
export const modelCommand: CommandModule = {
  command: 'model',
  describe: 'model (not built yet)',
  handler: () => {
    process.stderr.write('outlay model: not built yet\n');
    process.exitCode = 1;
  },
};
