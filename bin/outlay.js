#!/usr/bin/env node
// The published entry point runs the compiled CLI (built by `npm run build`, which `npm ci` triggers via `prepare`).
import { main } from '../dist/jobs/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
