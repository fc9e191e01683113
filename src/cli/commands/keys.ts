import type { CommandModule } from 'yargs';

// Placeholder wired into the CLI so that helpers can build in parallel; replaced by the real command.
export const keysCommand: CommandModule = {
  command: 'keys',
  describe: 'keys (not built yet)',
  handler: () => {
    process.stderr.write('outlay keys: not built yet\n');
    process.exitCode = 1;
  },
};
