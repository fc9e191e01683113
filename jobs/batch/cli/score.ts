/**
 * `outlay score`: the batch job over a CSV/Arrow file (jobs/batch/score), or — given `--json` or a `.json`
 * request file — the one-off score of a single request, as POST /scores/generate would answer it.
 * Exit codes (../score/exit-codes.ts, docs/batch.md): 0 every row scored, 3 finished with rejects within
 * --max-reject-rate (default: half the rows), 4 above it, 5 the index's PSI against --reference above --max-psi, 1 failure (nothing published), 130/143 interrupted by SIGINT/SIGTERM,
 * 141 standard output (`--scored -`) closed by its reader; one-off: 0, or 2 for an invalid request.
 */
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { type Logger, pino } from 'pino';
import type { Argv, CommandModule, InferredOptionTypes } from 'yargs';
import { oneOffOptions, runOneOff } from '../../../src/cli/one-off.js';
import { BASES } from '../../../src/contract/schemas.js';
import { checkScoreKey } from '../../../src/engine/create-engine.js';
import { SCORE_PROFILES } from '../../../src/engine/score-details.js';
import type { RemoteEngine } from '../../../src/remote/client.js';
import { DEFAULT_MAX_OUTAGE_MS } from '../../../src/remote/outage-breaker.js';
import { DEFAULT_RETRY_POLICY } from '../../../src/remote/retry-policy.js';
import { parseDelimiter } from '../io/csv-dialect.js';
import { INPUT_ENCODINGS } from '../io/text-encoding.js';
import type { Summary } from '../report/summary-schema.js';
import { DEFAULT_ENGINE_MODULE, type EngineSpec } from '../score/engine-spec.js';
import {
  checkMaxRejectRate,
  combinedExitCode,
  DEFAULT_MAX_REJECT_RATE,
  EXIT_BROKEN_PIPE,
  EXIT_FAILURE,
  EXIT_REJECT_RATE_EXCEEDED,
  interruptedExitCode,
  JobInterrupted,
  publishedExitCode,
  ScoredStreamClosed,
} from '../score/exit-codes.js';
import type { MainThreadIo, ScoreJobResult, Shard } from '../score/job.js';
import type { OutputLayout } from '../score/layout.js';
import type { BatchScorer } from '../score/scorer.js';
import { countedInLines, logLineSpans } from './line-span-outcome.js';
import { judgeComparison, readReference, referenceOptions } from './reference.js';
import { onStopSignals } from './stop-signals.js';

const scoreOptions = {
  ...oneOffOptions,
  period: {
    ...oneOffOptions.period,
    describe:
      'One-off requests only, where scores ignore it; a batch file is annual and refuses any other period',
  },
  explain: {
    type: 'boolean',
    default: false,
    describe:
      'One-off requests only: print the score with its details, as POST /v1.0/scores/generate?explain=true',
  },
  // No yargs default: a one-off request's own `options.basis` stands unless --basis is given.
  basis: {
    choices: BASES,
    describe:
      'The PSA\'s basis: "stated" amounts as sent (default), or "benchmark": every category at least its benchmark (docs/scores.md)',
  },
  'score-profile': {
    choices: SCORE_PROFILES,
    default: 'standard' as const,
    describe:
      'Batch: "fair-lending" computes the score without age and household type; budgets and models still use them (docs/scores.md)',
  },
  'score-reference': {
    type: 'string',
    describe:
      'Batch, local engine: the score reference built for --model, which outlay_percentile reads (default: the shipped one, for the shipped model)',
  },
  out: { type: 'string', default: 'out', describe: 'Output directory' },
  scored: {
    type: 'string',
    choices: ['-'] as const,
    // Takes the next argument whatever it is: otherwise `--scored -` leaves the lone `-` as a positional.
    requiresArg: true,
    describe:
      'Batch: "-" writes the scored rows to standard output as an Arrow IPC stream (the rejects, summary and report still go to --out)',
  },
  format: {
    choices: ['csv', 'arrow', 'parquet'] as const,
    describe: "Scored file format (default: the input's)",
  },
  compress: {
    choices: ['gzip'] as const,
    describe: 'Compress the scored CSV file (NAME.scored.csv.gz)',
  },
  excel: {
    type: 'boolean',
    default: false,
    describe:
      'CSV output as Excel opens it: UTF-8 with a byte order mark; for a ;-separated input, ; between fields and decimal commas (80,5), else , and decimal points. Applies to the scored, rejects and columns files (docs/batch.md)',
  },
  'input-format': {
    choices: ['csv', 'arrow'] as const,
    describe:
      'Format of standard input (-): CSV (default) or an Arrow IPC stream; a file is known by its name',
  },
  delimiter: {
    type: 'string',
    describe:
      'CSV field delimiter: one character, or "tab" (default: the most frequent of , ; tab in the header line)',
  },
  encoding: {
    choices: INPUT_ENCODINGS,
    default: 'utf-8' as const,
    describe: 'CSV input text encoding',
  },
  'single-line-records': {
    type: 'boolean',
    default: false,
    describe:
      'CSV: reject every record that spans several lines (for exports that never embed line breaks in a value)',
  },
  engine: {
    choices: ['local', 'remote'] as const,
    default: 'local' as const,
    describe: 'Score with the built-in engine or a remote API',
  },
  'api-url': {
    type: 'string',
    describe: 'Remote API base URL (e.g. https://outlay.example.com), with --engine remote',
  },
  'api-key': { type: 'string', describe: 'Remote API key (default: env OUTLAY_API_KEY)' },
  ca: { type: 'string', describe: 'PEM file of a private CA to trust for the remote API' },
  concurrency: { type: 'number', default: 16, describe: 'Remote requests in flight at most' },
  timeout: {
    type: 'number',
    default: 10_000,
    describe: 'Remote request limits, ms: connect, wait for the headers, and each pause in the body',
  },
  retries: {
    type: 'number',
    default: 6,
    describe:
      'Remote retries per request (network errors, timeouts, 5xx); 429 is waited out without counting',
  },
  'max-outage': {
    type: 'number',
    default: DEFAULT_MAX_OUTAGE_MS / 1000,
    describe:
      'Remote: seconds the server may stay unreachable (requests paused, probed with backoff) before the job fails with exit 1',
  },
  workers: {
    type: 'number',
    // The main thread scores too whenever every worker is busy, so one core needs no worker of its own.
    default: Math.max(1, availableParallelism() - 1),
    describe:
      'Worker threads for the local engine; the main thread also scores when they are all busy (0: main thread only)',
  },
  shard: {
    type: 'string',
    describe:
      'Score shard I of N (1-based): one share of consecutive rows, reading only that part of the file (CSV byte range, Arrow batches, Parquet row groups)',
  },
  'group-by': { type: 'string', describe: 'Comma-separated input columns to break the summary down by' },
  map: {
    type: 'string',
    describe:
      'JSON column map: {"columns": {"theirs": "contract_name"}, "booleans": {"true": ["Y"], "false": ["N"]}}',
  },
  'pass-through': {
    type: 'string',
    describe:
      'Comma-separated input columns to pass through unused although their names are close to a field (otherwise the job stops, naming the --map line that uses them)',
  },
  'loan-rate': {
    type: 'string',
    describe:
      'The annual rate of every row\'s loan ("12%" or 0.12) when the input gives loan_amount and loan_term_months but no loan_rate column (docs/batch.md)',
  },
  resume: {
    type: 'boolean',
    default: false,
    describe: 'Keep checkpoints, and continue an interrupted run from its last one',
  },
  'checkpoint-every': {
    type: 'number',
    default: 1000,
    describe: 'With --resume: make progress durable every this many ms',
  },
  'max-reject-rate': {
    type: 'number',
    describe: `Exit 4 instead of 3 when more than this fraction of rows is rejected (0 to 1; default: ${DEFAULT_MAX_REJECT_RATE})`,
  },
  ...referenceOptions,
  progress: { type: 'boolean', describe: 'Progress bar on stderr (default: when stderr is a terminal)' },
  'log-level': {
    choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
    default: 'info' as const,
  },
  model: { type: 'string', describe: 'Model artifact for the local engine (default: the shipped one)' },
  'batch-rows': { type: 'number', default: 2048, describe: 'Rows per work batch' },
} as const;

type ScoreArgs = InferredOptionTypes<typeof scoreOptions> & { input?: string | undefined };

export const scoreCommand: CommandModule<object, ScoreArgs> = {
  command: 'score [input]',
  describe:
    'Score a CSV/Arrow file of households into enriched files, rejects and a PSA report (or one --json request)',
  builder: (yargs) =>
    yargs
      .positional('input', {
        type: 'string',
        describe:
          'Input .csv, .csv.gz, .arrow or .parquet file, - for standard input (CSV, or --input-format arrow), or a .json request',
      })
      .options(scoreOptions) as unknown as Argv<ScoreArgs>,
  handler: async (argv) => {
    if (argv.json !== undefined || argv.input?.toLowerCase().endsWith('.json')) {
      process.exitCode = await runOneOff(
        'score',
        { json: argv.json, file: argv.input },
        { period: argv.period, scoreKey: argv['score-key'], explain: argv.explain, basis: argv.basis },
      );
      return;
    }
    // yargs turns a lone `-` into '' (yargs/yargs#1312); an empty path names no file, so '' is the dash.
    process.exitCode = await runBatch({ ...argv, input: argv.input === '' ? '-' : argv.input });
  },
};

async function runBatch(argv: ScoreArgs): Promise<number> {
  if (argv.input === undefined)
    throw new Error('score: name an input file (.csv, .csv.gz, .arrow, .parquet, or - for standard input)');
  // The option is shared with the one-off commands; a batch's files are annual, and a period asked for
  // and not applied would pass annual amounts off as monthly ones.
  if (argv.period !== 'annual') {
    throw new Error(
      `score: --period ${argv.period} applies to one-off requests (--json or a .json file); a batch's budget and model amounts are annual`,
    );
  }
  if (argv.explain)
    throw new Error('score: --explain applies to one-off requests (--json or a .json file), not to a batch');
  if (argv.engine === 'remote' && argv['score-reference'] !== undefined)
    throw new Error('score: --score-reference applies to the local engine; a remote server uses its own');
  const maxRejectRate = checkMaxRejectRate(argv['max-reject-rate']);
  const reference = await readReference(argv.reference, argv['max-psi']);
  const logger = pino({ level: argv['log-level'], base: { command: 'score' } }, pino.destination(2));
  logger.info(startFields(argv, maxRejectRate), 'score job started');
  const started = performance.now();
  const stop = onStopSignals(logger);
  try {
    const result = await runJob(argv, reference.summary, logger, stop.signal);
    printOutputs(result);
    const exitCode = exitCodeOf(result, maxRejectRate, logger, reference.maxPsi);
    logger.info({ ...countsOf(result), exitCode, durationMs: elapsedMs(started) }, 'score job finished');
    return exitCode;
  } catch (error) {
    return failed(error, logger, started);
  } finally {
    stop.dispose();
  }
}

async function runJob(
  argv: ScoreArgs,
  reference: Summary | undefined,
  logger: Logger,
  stop: AbortSignal,
): Promise<ScoreJobResult> {
  // Loaded here, not at the top: the main thread keeps only what the chosen engine needs in memory.
  const { runScoreJob } = await import('../score/job.js');
  return runScoreJob({
    input: argv.input!,
    outDir: argv.out,
    scoredStream: argv.scored === '-' ? process.stdout : undefined,
    format: argv.format,
    inputFormat: argv['input-format'],
    compress: argv.compress,
    excel: argv.excel,
    csv: {
      delimiter: argv.delimiter === undefined ? undefined : parseDelimiter(argv.delimiter),
      encoding: argv.encoding,
      singleLineRecords: argv['single-line-records'] ? true : undefined,
    },
    shard: argv.shard === undefined ? null : parseShard(argv.shard),
    groupBy: listOption(argv['group-by']),
    mapFile: argv.map,
    passThrough: listOption(argv['pass-through']),
    loanRate: argv['loan-rate'],
    resume: argv.resume,
    progressBar: argv.progress ?? process.stderr.isTTY === true,
    batchRows: positiveInteger('--batch-rows', argv['batch-rows']),
    scoreKey: argv['score-key'],
    scoring: { basis: argv.basis ?? 'stated', profile: argv['score-profile'] },
    logger,
    checkpointIntervalMs: positiveInteger('--checkpoint-every', argv['checkpoint-every']),
    startScorer: (layout, io) => startScorer(argv, layout, io, logger),
    stop,
    reference,
  });
}

/** The run as asked for, logged before anything else happens. */
function startFields(argv: ScoreArgs, maxRejectRate: number | undefined): Record<string, unknown> {
  return {
    input: argv.input,
    out: argv.out,
    format: argv.format ?? 'as input',
    excel: argv.excel,
    basis: argv.basis ?? 'stated',
    scoreProfile: argv['score-profile'],
    engine: argv.engine,
    ...(argv.engine === 'local'
      ? { model: argv.model ?? 'shipped', workers: argv.workers }
      : { apiUrl: argv['api-url'], concurrency: argv.concurrency }),
    shard: argv.shard ?? null,
    resume: argv.resume,
    maxRejectRate: maxRejectRate ?? null,
    batchRows: argv['batch-rows'],
  };
}

/** On stderr when the scored rows went to stdout (`--scored -`), which then holds nothing else. */
function printOutputs(result: ScoreJobResult): void {
  const { files } = result;
  (files.scored === '-' ? process.stderr : process.stdout).write(
    `outlay score: ${result.rowsIn} rows in, ${result.rowsScored} scored, ${result.rowsRejected} rejected\n` +
      `  scored:  ${files.scored}\n  rejects: ${files.rejects}\n  summary: ${files.summary}\n  report:  ${files.report}\n`,
  );
}

function exitCodeOf(
  result: ScoreJobResult,
  maxRejectRate: number | undefined,
  logger: Logger,
  maxPsi: number | undefined,
): number {
  logLineSpans(result, logger);
  const { code, rejectRate } = publishedExitCode(countedInLines(result), maxRejectRate);
  if (code === EXIT_REJECT_RATE_EXCEEDED)
    logger.error(
      { rejectRate, maxRejectRate: maxRejectRate ?? DEFAULT_MAX_REJECT_RATE },
      'reject rate above --max-reject-rate (or its default): the outputs are published, the run counts as failed',
    );
  return combinedExitCode(code, judgeComparison(result.comparison, maxPsi, logger));
}

const countsOf = (result: ScoreJobResult) => ({
  rowsIn: result.rowsIn,
  rowsScored: result.rowsScored,
  rowsRejected: result.rowsRejected,
  zipsPadded: result.zipsPadded,
  modelVersion: result.modelVersion,
});

const elapsedMs = (started: number) => Math.round(performance.now() - started);

/** The end line of a run that published nothing, and its exit code. */
function failed(error: unknown, logger: Logger, started: number): number {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof JobInterrupted) {
    const exitCode = interruptedExitCode(error.signal);
    logger.warn({ rowsDone: error.rowsDone, exitCode, durationMs: elapsedMs(started) }, message);
    process.stderr.write(`outlay: ${message}\n`);
    return exitCode;
  }
  const exitCode = error instanceof ScoredStreamClosed ? EXIT_BROKEN_PIPE : EXIT_FAILURE;
  logger.error({ exitCode, durationMs: elapsedMs(started) }, `score job failed: ${message}`);
  process.stderr.write(`outlay: ${message}\n`);
  return exitCode;
}

async function startScorer(
  argv: ScoreArgs,
  layout: OutputLayout,
  io: MainThreadIo,
  logger: Logger,
): Promise<BatchScorer> {
  const scoreKey = argv['score-key'];
  if (argv.engine === 'local') {
    const engine = { module: DEFAULT_ENGINE_MODULE, options: localEngineOptions(argv) };
    const workers = nonNegativeInteger('--workers', argv.workers);
    if (workers === 0) {
      const [{ InProcessScorer }, { loadEngineFrom }] = await Promise.all([
        import('../score/local-scorer.js'),
        import('../score/engine-spec.js'),
      ]);
      return new InProcessScorer(await loadEngineFrom(engine), layout);
    }
    const { WorkerPool } = await import('../score/worker-pool.js');
    return WorkerPool.start(workers, { engine, layout }, io.scores);
  }
  if (argv['api-url'] === undefined) throw new Error('--engine remote needs --api-url');
  checkScoreKey(scoreKey);
  const apiKey = argv['api-key'] ?? process.env.OUTLAY_API_KEY;
  if (apiKey === undefined || apiKey === '')
    throw new Error('--engine remote needs --api-key or env OUTLAY_API_KEY');
  const concurrency = positiveInteger('--concurrency', argv.concurrency);
  const [{ RemoteClient }, { RemoteScorer }, { loadGeoResolver }] = await Promise.all([
    import('../../../src/remote/client.js'),
    import('../score/remote-scorer.js'),
    import('../../../src/geo/load.js'),
  ]);
  const client = new RemoteClient({
    baseUrl: argv['api-url'],
    scoreKey,
    apiKey,
    concurrency,
    timeoutMs: positiveInteger('--timeout', argv.timeout),
    retry: { ...DEFAULT_RETRY_POLICY, retries: nonNegativeInteger('--retries', argv.retries) },
    ca: argv.ca === undefined ? undefined : await readFile(argv.ca, 'utf8'),
    maxOutageMs: positiveSeconds('--max-outage', argv['max-outage']) * 1000,
    log: logger,
  });
  await client.checkReachable();
  const [geo, engine] = await Promise.all([loadGeoResolver(), client.describeEngine()]);
  logRemoteEngine(engine, logger);
  return new RemoteScorer(client, geo, layout, engine, argv['batch-rows'], concurrency);
}

/** Which way the rows go to the server, and the model version the summary will state. */
function logRemoteEngine(engine: RemoteEngine, logger: Logger): void {
  const { modelVersion, maxHouseholds } = engine;
  if (maxHouseholds === undefined)
    logger.warn({ modelVersion }, 'remote: the server offers no evaluate endpoint; three requests per row');
  else
    logger.info(
      { modelVersion, maxHouseholds },
      'remote: many rows per request (POST /v1.0/households/evaluate)',
    );
}

/** The local engine's files as the flags name them (absolute: workers may resolve them elsewhere). */
function localEngineOptions(argv: ScoreArgs): EngineSpec['options'] {
  const reference = argv['score-reference'];
  return {
    scoreKey: argv['score-key'],
    ...(argv.model === undefined ? {} : { modelPath: resolve(argv.model) }),
    ...(reference === undefined ? {} : { scoreReferencePath: resolve(reference) }),
  };
}

/** A comma-separated list of column names; none when the flag is not given. */
const listOption = (text: string | undefined): string[] =>
  text === undefined ? [] : text.split(',').map((name) => name.trim());

function parseShard(text: string): Shard {
  const match = /^([0-9]+)\/([0-9]+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || index < 1 || index > count) {
    throw new Error(`--shard ${text}: expected I/N with 1 ≤ I ≤ N (e.g. 1/4)`);
  }
  return { index, count };
}

function positiveInteger(flag: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${flag} must be a whole number ≥ 1, got ${value}`);
  return value;
}

function positiveSeconds(flag: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${flag} must be seconds > 0, got ${value}`);
  return value;
}

function nonNegativeInteger(flag: string, value: number): number {
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${flag} must be a whole number ≥ 0, got ${value}`);
  return value;
}
