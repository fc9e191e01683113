#!/usr/bin/env node
// The published entry point runs the compiled CLI (built by `npm run build`, which `npm ci` triggers via `prepare`).
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
