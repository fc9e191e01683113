/**
 * Figure 2 — the batch job against the I/O floor of its stack, back to back in one run:
 * CSV → CSV with one worker and with the default workers vs csv-parse + csv-stringify alone,
 * Arrow → Arrow wall time, and peak RSS at two sizes an order of magnitude apart.
 */
import { rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseBenchArgs } from './lib/args.js';
import { formatHotFunctions } from './lib/cpu-profile.js';
import { MB, megabytes, ratio, seconds } from './lib/format.js';
import { generateSample, profileNodeScript, withScratch } from './lib/outlay.js';
import { benchScript, OUTLAY_BIN } from './lib/paths.js';
import { runChecked } from './lib/process.js';
import { type Measurement, type TargetCheck, writeResult } from './lib/result.js';
import { median } from './lib/stats.js';

const args = parseBenchArgs({
  rows: { full: 1_000_000, smoke: 2_000 },
  'big-rows': { full: 10_000_000, smoke: 20_000 },
  runs: { full: 3, smoke: 1 },
});
const rows = args.rows;
const bigRows = args['big-rows'];
const startedAt = new Date().toISOString();
const RSS_LIMIT = 300 * MB;
// "Flat" memory: ten times the rows may not cost more than a quarter more memory.
const RSS_FLAT_FACTOR = 1.25;
const ARROW_SECONDS_PER_MILLION = 5;

type Variant = 'floor' | 'workers1' | 'workersDefault' | 'arrow';

const result = await withScratch('batch', async (dir) => {
  const csv = join(dir, 'households.csv');
  const arrow = join(dir, 'households.arrow');
  const out = join(dir, 'out');
  const floorOut = join(dir, 'floor.csv');
  await generateSample(rows, csv, 'csv');
  await generateSample(rows, arrow, 'arrow');

  const commands: Record<Variant, string[]> = {
    floor: [benchScript('stack/csv-io-floor'), csv, floorOut],
    workers1: [OUTLAY_BIN, 'score', csv, '--out', out, '--workers', '1'],
    workersDefault: [OUTLAY_BIN, 'score', csv, '--out', out],
    arrow: [OUTLAY_BIN, 'score', arrow, '--out', out],
  };
  const wallMs: Record<Variant, number[]> = { floor: [], workers1: [], workersDefault: [], arrow: [] };
  let rssDefault = 0;
  // Alternating the variants spreads any drift of the machine (page cache, other tenants) over all of them.
  for (let run = 0; run < args.runs; run++) {
    for (const variant of Object.keys(commands) as Variant[]) {
      const outcome = await runChecked(process.execPath, commands[variant]);
      wallMs[variant].push(outcome.wallMs);
      if (variant === 'workersDefault') rssDefault = Math.max(rssDefault, outcome.peakRssBytes);
      await rm(out, { recursive: true, force: true });
      await rm(floorOut, { force: true });
    }
  }
  const medianMs = {
    floor: median(wallMs.floor),
    workers1: median(wallMs.workers1),
    workersDefault: median(wallMs.workersDefault),
    arrow: median(wallMs.arrow),
  };

  const profiles: string[] = [];
  const profileIf = async (unmet: boolean, variant: Variant, title: string) => {
    if (args.smoke || !(unmet || args.profile)) return;
    profiles.push(formatHotFunctions(title, await profileNodeScript(commands[variant])));
    await rm(out, { recursive: true, force: true });
  };

  await rm(arrow);
  await rm(csv);
  const bigCsv = join(dir, 'households-big.csv');
  await generateSample(bigRows, bigCsv, 'csv');
  const big = await runChecked(process.execPath, [OUTLAY_BIN, 'score', bigCsv, '--out', out]);
  await rm(dir, { recursive: true, force: true });

  const workers1Ratio = medianMs.workers1 / medianMs.floor;
  const defaultRatio = medianMs.workersDefault / medianMs.floor;
  const arrowLimitMs = (ARROW_SECONDS_PER_MILLION * 1000 * rows) / 1_000_000;
  const rssGrowth = big.peakRssBytes / rssDefault;
  const targets: TargetCheck[] = [
    {
      name: 'CSV → CSV, --workers 1, vs I/O floor',
      target: '≤ 1.30× floor',
      measured: `${ratio(workers1Ratio)} (${seconds(medianMs.workers1)} vs ${seconds(medianMs.floor)})`,
      met: workers1Ratio <= 1.3,
    },
    {
      name: `CSV → CSV, default workers (${availableParallelism()}), vs single-worker floor`,
      target: '< 1.00× floor',
      measured: `${ratio(defaultRatio)} (${seconds(medianMs.workersDefault)} vs ${seconds(medianMs.floor)})`,
      met: defaultRatio < 1,
    },
    {
      name: `Arrow → Arrow, ${rows.toLocaleString('en-US')} rows`,
      target: `≤ ${seconds(arrowLimitMs)}`,
      measured: seconds(medianMs.arrow),
      met: medianMs.arrow <= arrowLimitMs,
    },
    {
      name: `Peak RSS, ${rows.toLocaleString('en-US')} and ${bigRows.toLocaleString('en-US')} rows`,
      target: `both ≤ ${megabytes(RSS_LIMIT)}, growth ≤ ${ratio(RSS_FLAT_FACTOR)}`,
      measured: `${megabytes(rssDefault)} and ${megabytes(big.peakRssBytes)} (${ratio(rssGrowth)})`,
      met: Math.max(rssDefault, big.peakRssBytes) <= RSS_LIMIT && rssGrowth <= RSS_FLAT_FACTOR,
    },
  ];
  await profileIf(!targets[0]!.met, 'workers1', 'outlay score --workers 1 (CSV)');
  await profileIf(!targets[1]!.met, 'workersDefault', 'outlay score, default workers (CSV)');
  await profileIf(!targets[2]!.met, 'arrow', 'outlay score (Arrow)');
  if (profiles.length > 0)
    profiles.unshift(formatHotFunctions('I/O floor', await profileNodeScript(commands.floor)));

  const measurements: Measurement[] = [
    {
      name: 'I/O floor (csv-parse → csv-stringify)',
      value: medianMs.floor / 1000,
      unit: 's',
      detail: runsOf(wallMs.floor),
    },
    {
      name: 'outlay score --workers 1',
      value: medianMs.workers1 / 1000,
      unit: 's',
      detail: runsOf(wallMs.workers1),
    },
    {
      name: `outlay score (default ${availableParallelism()} workers)`,
      value: medianMs.workersDefault / 1000,
      unit: 's',
      detail: runsOf(wallMs.workersDefault),
    },
    {
      name: 'outlay score Arrow → Arrow',
      value: medianMs.arrow / 1000,
      unit: 's',
      detail: runsOf(wallMs.arrow),
    },
    {
      name: `Peak RSS, ${rows.toLocaleString('en-US')} rows (default workers)`,
      value: rssDefault / MB,
      unit: 'MB',
    },
    {
      name: `Peak RSS, ${bigRows.toLocaleString('en-US')} rows (default workers)`,
      value: big.peakRssBytes / MB,
      unit: 'MB',
      detail: `wall ${seconds(big.wallMs)}`,
    },
  ];
  return { targets, measurements, notes: profiles };
});

function runsOf(values: readonly number[]): string {
  return `median of ${values.length}: ${values.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`;
}

await writeResult(args.resultsDir, {
  figure: 'batch',
  title: 'Batch job: CSV and Arrow, 1 M rows, against the I/O floor',
  command: 'node dist/bench/batch.js',
  smoke: args.smoke,
  startedAt,
  parameters: { rows, bigRows, runs: args.runs, defaultWorkers: availableParallelism() },
  ...result,
});
