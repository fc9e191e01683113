/**
 * Figure 4 — remote mode: rows per second of `outlay score --engine remote` against a local `outlay serve`
 * that offers POST /v1.0/households/evaluate and its answer in rows (the job asks for them), beside the same job with the local engine on the same input,
 * alternated in the same run (the target: remote at least half the local rate). With the CPU per row of
 * the remote job and of the server, which share this machine's cores.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { EVALUATE_ROWS_MEDIA_TYPE } from '../src/contract/evaluate.js';
import { createApiKey, keysFileIn, profileServer, startOutlayServer, urlOf } from './lib/api-server.js';
import { parseBenchArgs } from './lib/args.js';
import { formatHotFunctions } from './lib/cpu-profile.js';
import { perSecond, seconds } from './lib/format.js';
import { generateSample, outlay, profileOutlay, withScratch } from './lib/outlay.js';
import { type Service, withCpuOf } from './lib/process.js';
import { startFigure, writeResult } from './lib/result.js';
import { median } from './lib/stats.js';

const args = parseBenchArgs({
  rows: { full: 200_000, smoke: 500 },
  concurrency: { full: 16, smoke: 4 },
  runs: { full: 3, smoke: 1 },
});
const figureStart = startFigure();
const TARGET_SHARE = 0.5;

/** One local run and one remote run of the same input, back to back. */
interface Run {
  readonly localRowsPerSecond: number;
  readonly remoteRowsPerSecond: number;
  /**
   * CPU per row, µs: the local job's and the remote job's (all threads, start-up included), and the
   * server's while the remote job ran.
   */
  readonly localCpuUs: number | undefined;
  readonly jobCpuUs: number | undefined;
  readonly serverCpuUs: number;
}

const result = await withScratch('remote', async (dir) => {
  const keysFile = keysFileIn(dir);
  const apiKey = await createApiKey(keysFile);
  const input = join(dir, 'households.csv');
  await generateSample(args.rows, input, 'csv');
  const localArgs = ['score', input, '--out', join(dir, 'local'), '--engine', 'local', '--no-progress'];
  const remoteArgs = (service: Service) => [
    'score',
    input,
    '--out',
    join(dir, 'remote'),
    '--engine',
    'remote',
    '--api-url',
    urlOf(service, ''),
    '--api-key',
    apiKey,
    '--concurrency',
    String(args.concurrency),
    '--no-progress',
  ];
  const rowsPerSecond = (wallMs: number) => args.rows / (wallMs / 1000);
  const cpuPerRow = (cpuMs: number | undefined) =>
    cpuMs === undefined ? undefined : (cpuMs * 1000) / args.rows;

  const runs: Run[] = [];
  for (let run = 0; run < args.runs; run++) {
    const service = await startOutlayServer(keysFile);
    try {
      // Alternated, so that a change of the host's speed state falls on both sides as often.
      const local = run % 2 === 0 ? await outlay(localArgs) : undefined;
      const { result: remote, cpuMs: serverCpuMs } = await withCpuOf(service.pid, () =>
        outlay(remoteArgs(service)),
      );
      const localAfter = local ?? (await outlay(localArgs));
      runs.push({
        localRowsPerSecond: rowsPerSecond(localAfter.wallMs),
        remoteRowsPerSecond: rowsPerSecond(remote.wallMs),
        localCpuUs: cpuPerRow(localAfter.cpuMs),
        jobCpuUs: cpuPerRow(remote.cpuMs),
        serverCpuUs: (serverCpuMs * 1000) / args.rows,
      });
    } finally {
      await service.stop();
    }
  }

  const shares = runs.map((run) => run.remoteRowsPerSecond / run.localRowsPerSecond);
  const share = median(shares);
  const local = median(runs.map((run) => run.localRowsPerSecond));
  const remote = median(runs.map((run) => run.remoteRowsPerSecond));
  const medianCpu = (cpu: (number | undefined)[]) =>
    cpu.includes(undefined) ? undefined : median(cpu as number[]);
  const localCpuUs = medianCpu(runs.map((run) => run.localCpuUs));
  const jobCpuUs = medianCpu(runs.map((run) => run.jobCpuUs));
  const serverCpuUs = median(runs.map((run) => run.serverCpuUs));
  const cores = availableParallelism();
  const notes = [
    `The remote job, its server and the local job's worker share this machine's ${cores} cores; the remote ` +
      `job runs with --concurrency ${args.concurrency}, each batch of 2,048 rows in that many evaluate ` +
      `requests, answered in rows (${EVALUATE_ROWS_MEDIA_TYPE}). Wall times include start-up (${args.rows.toLocaleString('en-US')} rows). Remote ÷ local per ` +
      `run: ${shares.map((ratio) => `${(ratio * 100).toFixed(1)}%`).join(', ')}.`,
  ];
  if (!args.smoke && args.profile) {
    let client: string | undefined;
    const server = await profileServer(
      (flags) => startOutlayServer(keysFile, flags),
      async (service) => {
        client = formatHotFunctions(
          'outlay score --engine remote (client)',
          await profileOutlay(remoteArgs(service)),
        );
      },
    );
    notes.push(client!, formatHotFunctions('outlay serve during the remote job', server));
  }
  return {
    measurements: [
      {
        name: 'outlay score --engine local',
        value: Math.round(local),
        unit: 'rows/s',
        detail: `${args.rows.toLocaleString('en-US')} rows in ${seconds((args.rows / local) * 1000)}`,
      },
      {
        name: 'outlay score --engine remote (evaluate endpoint, rows)',
        value: Math.round(remote),
        unit: 'rows/s',
        detail: `${args.rows.toLocaleString('en-US')} rows in ${seconds((args.rows / remote) * 1000)}`,
      },
      ...(localCpuUs === undefined
        ? []
        : [{ name: 'CPU per row: the local job (all threads)', value: Math.round(localCpuUs), unit: 'µs' }]),
      ...(jobCpuUs === undefined
        ? []
        : [{ name: 'CPU per row: the remote job (all threads)', value: Math.round(jobCpuUs), unit: 'µs' }]),
      { name: 'CPU per row: the server during the remote job', value: Math.round(serverCpuUs), unit: 'µs' },
    ],
    targets: [
      {
        name: 'remote job vs local engine, same input, same run',
        target: `≥ ${TARGET_SHARE * 100}% of the local rate`,
        measured: `${(share * 100).toFixed(1)}% (median of the runs; medians ${perSecond(remote)} vs ${perSecond(local)} rows)`,
        met: share >= TARGET_SHARE,
      },
    ],
    notes,
  };
});

await writeResult(args.resultsDir, figureStart, {
  figure: 'remote',
  title: 'Remote mode (evaluate endpoint, answers in rows) against the local engine',
  command: 'node dist/bench/remote.js',
  smoke: args.smoke,
  parameters: { rows: args.rows, concurrency: args.concurrency, runs: args.runs },
  ...result,
});
