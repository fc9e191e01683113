import { oneOffCommand } from '../one-off.js';

export const modelCommand = oneOffCommand(
  'model',
  'Print the behavioral model for one request (JSON from --json, a file or stdin), as POST /demographics/models/generate would',
);
