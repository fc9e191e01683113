import type { CommandModule } from 'yargs';

// Placeholder wired into the CLI so that helpers can build in parallel; replaced by the real command.
export const serveCommand: CommandModule = {
  command: 'serve',
  describe: 'serve (not built yet)',
  handler: () => {
    process.stderr.write('outlay serve: not built yet\n');
    process.exitCode = 1;
  },
};
