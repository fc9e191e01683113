/**
 * Runs every figure, each in its own process, then regenerates docs/benchmarks.md from their results.
 *
 *   node dist/bench/run-all.js [--smoke] [--only engine,batch] [--render-only] [--results DIR] [--doc FILE]
 *
 * A smoke run writes its document beside its results, never over the committed docs/benchmarks.md, which
 * is written only from figures measured on the container image's Node major (lib/runtime.ts).
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCHMARKS_DOC, benchScript, DEFAULT_RESULTS_DIR } from './lib/paths.js';
import { runChecked } from './lib/process.js';
import { renderBenchmarks } from './lib/render.js';
import { FIGURES, readResult } from './lib/result.js';
import { nodeMajor, publishedRuntimeProblems, shippedNodeMajor } from './lib/runtime.js';

const { values } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    only: { type: 'string' },
    'render-only': { type: 'boolean', default: false },
    results: { type: 'string', default: DEFAULT_RESULTS_DIR },
    doc: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});
if (values.help) {
  process.stdout.write(
    'usage: node dist/bench/run-all.js [--smoke] [--only engine,batch,parquet,api,remote] [--render-only] [--results DIR] [--doc FILE]\n',
  );
  process.exit(0);
}
const resultsDir = values.results;
const doc = values.doc ?? (values.smoke ? join(resultsDir, 'benchmarks.md') : BENCHMARKS_DOC);
const selected = values.only === undefined ? [...FIGURES] : values.only.split(',');
for (const figure of selected) {
  if (!(FIGURES as readonly string[]).includes(figure)) throw new Error(`unknown figure ${figure}`);
}
// The committed document states the shipped runtime's figures (runtime.ts): refuse another major before
// measuring for twenty minutes, and again below for results measured earlier.
const publishing = resolve(doc) === BENCHMARKS_DOC;
const shippedMajor = shippedNodeMajor();
const howToPublish = `run \`npm run bench\` (npx --yes node@${shippedMajor}), or write the document elsewhere with --doc FILE`;
if (publishing && !values['render-only'] && nodeMajor(process.version) !== shippedMajor) {
  throw new Error(
    `bench: docs/benchmarks.md states the figures of the image's Node ${shippedMajor} (deploy/Dockerfile), ` +
      `and this is Node ${process.version}: ${howToPublish}`,
  );
}

if (!values['render-only']) {
  for (const figure of selected) {
    process.stderr.write(`bench: ${figure}…\n`);
    const flags = ['--results', resultsDir, ...(values.smoke ? ['--smoke'] : [])];
    const { wallMs } = await runChecked(process.execPath, [benchScript(figure), ...flags]);
    process.stderr.write(`bench: ${figure} done in ${(wallMs / 1000).toFixed(1)} s\n`);
  }
}

// The document always shows every figure that has a result, so figures can be re-run one at a time.
const results = [];
for (const figure of FIGURES) {
  if (existsSync(join(resultsDir, `${figure}.json`))) results.push(await readResult(resultsDir, figure));
}
const problems = publishing ? publishedRuntimeProblems(results, shippedMajor) : [];
if (problems.length > 0) {
  throw new Error(`bench: docs/benchmarks.md not written:\n  ${problems.join('\n  ')}\n${howToPublish}`);
}
await writeFile(doc, renderBenchmarks(results));
process.stderr.write(`bench: wrote ${doc}\n`);
