/**
 * Figure 4 — remote mode: rows per second of `outlay score --engine remote` against a local `outlay serve`,
 * relative to that server's own capacity for the three calls a row takes (autocannon on each endpoint, same
 * connections as the job's concurrency).
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import {
  createApiKey,
  ENDPOINTS,
  keysFileIn,
  profileServer,
  REQUEST_BODY,
  startOutlayServer,
  urlOf,
} from './lib/api-server.js';
import { parseBenchArgs } from './lib/args.js';
import { runLoad } from './lib/autocannon.js';
import { formatHotFunctions } from './lib/cpu-profile.js';
import { perSecond, seconds } from './lib/format.js';
import { generateSample, outlay, profileOutlay, withScratch } from './lib/outlay.js';
import type { Service } from './lib/process.js';
import { startFigure, writeResult } from './lib/result.js';
import { median } from './lib/stats.js';

const args = parseBenchArgs({
  rows: { full: 50_000, smoke: 200 },
  duration: { full: 10, smoke: 1 },
  warmup: { full: 3, smoke: 1 },
  concurrency: { full: 50, smoke: 10 },
  runs: { full: 3, smoke: 1 },
});
const figureStart = startFigure();
const TARGET_SHARE = 0.7;

const result = await withScratch('remote', async (dir) => {
  const keysFile = keysFileIn(dir);
  const apiKey = await createApiKey(keysFile);
  const input = join(dir, 'households.csv');
  await generateSample(args.rows, input, 'csv');
  const jobArgs = (service: Service) => [
    'score',
    input,
    '--out',
    join(dir, 'out'),
    '--engine',
    'remote',
    '--api-url',
    urlOf(service, ''),
    '--api-key',
    apiKey,
    '--concurrency',
    String(args.concurrency),
  ];
  const load = (service: Service, path: string, durationSeconds: number) =>
    runLoad({
      url: urlOf(service, path),
      body: REQUEST_BODY,
      headers: { 'x-api-key': apiKey },
      connections: args.concurrency,
      durationSeconds,
    });

  const capacityRowsPerSecond: number[] = [];
  const jobRowsPerSecond: number[] = [];
  let failures = 0;
  const endpointRps = new Map<string, number[]>(Object.values(ENDPOINTS).map((path) => [path, []]));
  for (let run = 0; run < args.runs; run++) {
    const service = await startOutlayServer(keysFile);
    try {
      // A row costs one call to each endpoint, so the server's capacity in rows is the harmonic
      // combination of its three throughputs (req/s ÷ 3 when they are equal).
      let secondsPerRow = 0;
      for (const path of Object.values(ENDPOINTS)) {
        await load(service, path, args.warmup);
        const measured = await load(service, path, args.duration);
        failures += measured.failures;
        endpointRps.get(path)!.push(measured.requestsPerSecond);
        secondsPerRow += 1 / measured.requestsPerSecond;
      }
      capacityRowsPerSecond.push(1 / secondsPerRow);
      const job = await outlay(jobArgs(service));
      jobRowsPerSecond.push(args.rows / (job.wallMs / 1000));
    } finally {
      await service.stop();
    }
  }

  const capacity = median(capacityRowsPerSecond);
  const job = median(jobRowsPerSecond);
  // Each run's job against the capacity measured just before it on the same server: the machine's speed
  // drifts over minutes, and a ratio of medians from different runs would carry that drift.
  const shares = jobRowsPerSecond.map((rows, run) => rows / capacityRowsPerSecond[run]!);
  const share = median(shares);
  // Failed requests would flatter the capacity, so a run with any cannot meet the target.
  const met = failures === 0 && share >= TARGET_SHARE;
  const notes = [
    `The job, its server and (for capacity) autocannon share this machine's ${availableParallelism()} cores; ` +
      `the job runs with --concurrency ${args.concurrency}, the connections autocannon uses. ` +
      `Job wall time includes its start-up (${args.rows.toLocaleString('en-US')} rows).`,
  ];
  if (!args.smoke && (args.profile || !met)) {
    let client: string | undefined;
    const server = await profileServer(
      (flags) => startOutlayServer(keysFile, flags),
      async (service) => {
        client = formatHotFunctions(
          'outlay score --engine remote (client)',
          await profileOutlay(jobArgs(service)),
        );
      },
    );
    notes.push(client!, formatHotFunctions('outlay serve during the remote job', server));
  }
  return {
    measurements: [
      ...Object.entries(ENDPOINTS).map(([name, path]) => ({
        name: `server capacity, ${name}`,
        value: Math.round(median(endpointRps.get(path)!)),
        unit: 'req/s',
      })),
      {
        name: 'server capacity, rows (three calls each)',
        value: Math.round(capacity),
        unit: 'rows/s',
        detail: `${failures} failed requests`,
      },
      {
        name: 'outlay score --engine remote',
        value: Math.round(job),
        unit: 'rows/s',
        detail: `${args.rows.toLocaleString('en-US')} rows in ${seconds((args.rows / job) * 1000)}`,
      },
    ],
    targets: [
      {
        name: 'remote job vs server capacity',
        target: `≥ ${TARGET_SHARE * 100}% of capacity`,
        measured:
          `${(share * 100).toFixed(1)}% (median of the runs: ` +
          `${shares.map((ratio) => `${(ratio * 100).toFixed(1)}%`).join(', ')}; medians ` +
          `${perSecond(job)} vs ${perSecond(capacity)} rows)`,
        met,
      },
    ],
    notes,
  };
});

await writeResult(args.resultsDir, figureStart, {
  figure: 'remote',
  title: 'Remote mode against the server’s own capacity',
  command: 'node dist/bench/remote.js',
  smoke: args.smoke,
  parameters: {
    rows: args.rows,
    concurrency: args.concurrency,
    durationSeconds: args.duration,
    warmupSeconds: args.warmup,
    runs: args.runs,
  },
  ...result,
});
