/**
 * Figure — Parquet → Parquet against Arrow → Arrow, alternated in one run on the same households: wall
 * time, and peak RSS of the Parquet run (the file is read batch by batch and written in row groups), each
 * run's peak listed; CPU time beside, which competing processes move far less than wall time.
 */
import { createWriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ParquetBatchWriter } from '../jobs/batch/io/parquet-writer.js';
import { RecordBatchReader } from '../src/vendor/apache-arrow.js';
import { parseBenchArgs } from './lib/args.js';
import { MB, megabytes, ratio, seconds } from './lib/format.js';
import { generateSample, withScratch } from './lib/outlay.js';
import { OUTLAY_BIN } from './lib/paths.js';
import { type RunOutcome, runChecked } from './lib/process.js';
import { checked, type Measurement, startFigure, type TargetCheck, writeResult } from './lib/result.js';
import { median } from './lib/stats.js';

const args = parseBenchArgs({
  rows: { full: 1_000_000, smoke: 2_000 },
  runs: { full: 3, smoke: 1 },
});
const rows = args.rows;
const figureStart = startFigure();
const RSS_LIMIT = 300 * MB;
const TIME_FACTOR = 1.5;

const VARIANTS = {
  arrow: 'outlay score, Arrow → Arrow',
  parquet: 'outlay score, Parquet → Parquet',
} as const;
type Variant = keyof typeof VARIANTS;

/** The sample's Arrow file rewritten as Parquet, batch by batch. */
async function arrowToParquet(arrow: string, parquet: string): Promise<void> {
  const handle = await open(arrow, 'r');
  try {
    const writer = new ParquetBatchWriter();
    const written = pipeline(writer, createWriteStream(parquet));
    const reader = await RecordBatchReader.from(handle);
    await reader.open();
    let schema = reader.schema;
    let wrote = false;
    for await (const batch of reader) {
      schema = batch.schema;
      await writer.write(batch);
      wrote = true;
    }
    await writer.finish(schema, wrote);
    await written;
  } finally {
    await handle.close();
  }
}

const result = await withScratch('parquet', async (dir) => {
  const arrow = join(dir, 'households.arrow');
  const parquet = join(dir, 'households.parquet');
  const out = join(dir, 'out');
  await generateSample(rows, arrow, 'arrow');
  await arrowToParquet(arrow, parquet);
  const commands: Record<Variant, string[]> = {
    arrow: [OUTLAY_BIN, 'score', arrow, '--out', out],
    parquet: [OUTLAY_BIN, 'score', parquet, '--out', out],
  };
  const outcomes: Record<Variant, RunOutcome[]> = { arrow: [], parquet: [] };
  // Alternated, so that drift of the machine falls on both formats alike.
  for (let run = 0; run < args.runs; run++) {
    for (const variant of Object.keys(VARIANTS) as Variant[]) {
      outcomes[variant].push(await runChecked(process.execPath, commands[variant]));
      await rm(out, { recursive: true, force: true });
    }
  }
  const wall = (variant: Variant) => median(outcomes[variant].map((o) => o.wallMs));
  const rss = (variant: Variant) => Math.max(...outcomes[variant].map((o) => o.peakRssBytes));
  const cpu = (variant: Variant) => median(outcomes[variant].map((o) => o.cpuMs ?? Number.NaN));
  const each = (variant: Variant, value: (o: RunOutcome) => string) =>
    `${outcomes[variant].length} runs: ${outcomes[variant].map(value).join(', ')}`;
  const timeRatio = wall('parquet') / wall('arrow');
  const targets: TargetCheck[] = [
    checked(
      {
        name: `Parquet → Parquet vs Arrow → Arrow, ${rows.toLocaleString('en-US')} rows`,
        target: `≤ ${ratio(TIME_FACTOR)} Arrow`,
        measured: `${ratio(timeRatio)} (${seconds(wall('parquet'))} vs ${seconds(wall('arrow'))})`,
        met: timeRatio <= TIME_FACTOR,
      },
      () =>
        `Parquet used ${ratio(cpu('parquet') / cpu('arrow'))} Arrow's CPU time. The main thread bounds the run: ` +
        'it decodes and encodes (parquet-wasm) and counts the summary while the worker scores, and scores no ' +
        'rows itself, which keeps the peak memory under its limit. A second worker cannot shorten the main ' +
        "thread's part and costs about 50 MB (bench/NOTES.md, Batch job).",
    ),
    {
      name: `Peak RSS, Parquet → Parquet, ${rows.toLocaleString('en-US')} rows`,
      target: `≤ ${megabytes(RSS_LIMIT)}`,
      measured: megabytes(rss('parquet')),
      met: rss('parquet') <= RSS_LIMIT,
    },
  ];
  const measurements: Measurement[] = (Object.entries(VARIANTS) as [Variant, string][]).flatMap(
    ([variant, name]) => [
      {
        name,
        value: wall(variant) / 1000,
        unit: 's',
        detail: `median of ${each(variant, (o) => `${(o.wallMs / 1000).toFixed(2)} s`)}`,
      },
      // Known only where GNU time is there to report it (lib/process.ts).
      ...(Number.isNaN(cpu(variant))
        ? []
        : [
            {
              name: `CPU time, ${name}`,
              value: cpu(variant) / 1000,
              unit: 's',
              detail: `median of ${each(variant, (o) => `${(o.cpuMs! / 1000).toFixed(2)} s`)}`,
            },
          ]),
      {
        name: `Peak RSS, ${name}`,
        value: rss(variant) / MB,
        unit: 'MB',
        detail: `highest of ${each(variant, (o) => megabytes(o.peakRssBytes))}`,
      },
    ],
  );
  return { targets, measurements, notes: [] };
});

await writeResult(args.resultsDir, figureStart, {
  figure: 'parquet',
  title: 'Batch job: Parquet against Arrow',
  command: 'node dist/bench/parquet.js',
  smoke: args.smoke,
  parameters: { rows, runs: args.runs },
  ...result,
});
