import { oneOffCommand } from '../one-off.js';

export const budgetCommand = oneOffCommand(
  'budget',
  'Print the annual budget for one request (JSON from --json, a file or stdin), as POST /budgets/generate would',
);
