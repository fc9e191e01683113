/**
 * One-off operations from the command line: `outlay budget|model` (and `outlay score` when given a single
 * request rather than a batch file). They read one request body, run the engine on the shipped artifact and
 * print exactly the body the HTTP API would return. Exit codes: 0 success, 1 failure (unreadable input,
 * missing artifact), 2 invalid request — with the 400 body on stdout, as the API would send it.
 */
import { readFile } from 'node:fs/promises';
import type { Argv, CommandModule, InferredOptionTypes } from 'yargs';
import { type Basis, DEFAULT_SCORE_KEY, type InvalidRequestBody } from '../contract/schemas.js';
import { invalidRequest } from '../contract/validate.js';
import { rangesForPeriod } from '../engine/model-ranges.js';
import { amountsForPeriod, PERIOD_NAMES, type Period } from '../engine/period.js';
import { withAliases } from '../engine/transform.js';
import type { Engine } from '../engine/types.js';

export type OneOffOperation = 'budget' | 'model' | 'score';

/** Where the request comes from: JSON text, or a file path (`-` for stdin); neither means piped stdin. */
export interface OneOffSource {
  readonly json?: string | undefined;
  readonly file?: string | undefined;
}

export interface OneOffOptions {
  readonly period: Period;
  readonly scoreKey: string;
  /** Score only: print the answer of `?explain=true`, with its `details` (docs/scores.md). */
  readonly explain?: boolean | undefined;
  /** Model only: print the answer of `?ranges=true`, with `ranges` and `peers` (docs/model.md). */
  readonly ranges?: boolean | undefined;
  /**
   * Score only: `--basis`, which replaces the request's `options.basis` (docs/scores.md); when not given,
   * the body's `options` stand as sent, as the API reads them.
   */
  readonly basis?: Basis | undefined;
}

/** The options shared by the one-off commands, for reuse by any command that dispatches to `runOneOff`. */
export const oneOffOptions = {
  json: { type: 'string', describe: 'The request body as JSON text (instead of a file or stdin)' },
  period: {
    choices: PERIOD_NAMES,
    default: 'annual' as Period,
    describe:
      'Express budget and model amounts per period (whole units, largest remainder); scores ignore it',
  },
  'score-key': {
    type: 'string',
    default: DEFAULT_SCORE_KEY,
    describe: 'Name of the main score key in score responses',
  },
} as const;

export type OneOffArgs = InferredOptionTypes<typeof oneOffOptions> & {
  file?: string | undefined;
  ranges?: boolean | undefined;
};

/** `outlay model --ranges`. */
const rangesOption = {
  ranges: {
    type: 'boolean',
    default: false,
    describe:
      "Add each category's 25th, 50th and 75th percentile and the count of survey households behind them, as POST /v1.0/demographics/models/generate?ranges=true",
  },
} as const;

/** Adds the `[file]` positional and the one-off options to a command's builder. */
export const withOneOffOptions = <T>(yargs: Argv<T>) =>
  yargs
    .positional('file', {
      type: 'string',
      describe: 'Request JSON file; "-" or nothing with piped input reads stdin',
    })
    .options(oneOffOptions);

export async function runOneOff(
  operation: OneOffOperation,
  source: OneOffSource,
  options: OneOffOptions,
): Promise<number> {
  const text = await readRequestText(source, operation);
  if (text === undefined) return 1;
  const body = parseJson(text);
  if (!body.ok) return print(body.error, 2);
  // Loaded on use: `outlay score` shares these options but its batch job loads engines in its workers.
  const { loadEngine } = await import('../runtime/load-engine.js');
  const engine = await loadEngine({ scoreKey: options.scoreKey });
  const result = run(engine, operation, body.value, options);
  return result.ok ? print(result.value, 0) : print(result.error, 2);
}

/** A yargs command for `outlay budget` or `outlay model`. */
export function oneOffCommand(
  operation: Exclude<OneOffOperation, 'score'>,
  describe: string,
): CommandModule<object, OneOffArgs> {
  return {
    command: `${operation} [file]`,
    describe,
    builder: (yargs) =>
      (operation === 'model'
        ? withOneOffOptions(yargs).options(rangesOption)
        : withOneOffOptions(yargs)) as unknown as Argv<OneOffArgs>,
    handler: async (argv) => {
      process.exitCode = await runOneOff(
        operation,
        // yargs hands a lone "-" positional over as "".
        { json: argv.json, file: argv.file === '' ? '-' : argv.file },
        { period: argv.period, scoreKey: argv['score-key'], ranges: argv.ranges },
      );
    },
  };
}

function run(engine: Engine, operation: OneOffOperation, body: unknown, options: OneOffOptions) {
  const { period } = options;
  switch (operation) {
    // The period's amounts under the request's aliases, if any: sums of the converted amounts.
    case 'budget': {
      const result = engine.budget(body);
      const converted = result.ok
        ? { ok: true as const, value: { budget: amountsForPeriod(result.value.budget, period) } }
        : result;
      return withAliases('budget', converted, body);
    }
    case 'model': {
      if (options.ranges === true) {
        const result = engine.modelRanges(body);
        if (!result.ok) return result;
        const { model, ranges, peers } = result.value;
        const value = {
          model: amountsForPeriod(model, period),
          ranges: rangesForPeriod(ranges, period),
          peers,
        };
        return { ok: true as const, value };
      }
      const result = engine.model(body);
      const converted = result.ok
        ? { ok: true as const, value: { model: amountsForPeriod(result.value.model, period) } }
        : result;
      return withAliases('model', converted, body);
    }
    case 'score': {
      // PSA is monthly by definition and scores are ratios, so a period changes nothing in a score.
      const scored = withBasis(body, options.basis);
      return options.explain === true ? engine.explainedScore(scored) : engine.score(scored);
    }
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The body with `options.basis` set to `--basis` when it is given, its other options kept; without
 * `--basis`, the body as sent. A body or `options` that is not an object is left as it is, for the
 * validation to name.
 */
function withBasis(body: unknown, basis: Basis | undefined): unknown {
  if (basis === undefined || !isObject(body)) return body;
  const { options } = body;
  if (options !== undefined && !isObject(options)) return body;
  return { ...body, options: { ...options, basis } };
}

async function readRequestText(
  source: OneOffSource,
  operation: OneOffOperation,
): Promise<string | undefined> {
  if (source.json !== undefined && source.file !== undefined) {
    return fail(operation, 'give the request either with --json or as a file, not both');
  }
  if (source.json !== undefined) return source.json;
  if (source.file === undefined && process.stdin.isTTY) {
    return fail(operation, 'no request: pass --json, a file, or pipe the JSON to stdin');
  }
  const fromStdin = source.file === undefined || source.file === '-';
  try {
    return fromStdin ? await readStdin() : await readFile(source.file!, 'utf8');
  } catch (error) {
    return fail(operation, `cannot read ${fromStdin ? 'stdin' : source.file}: ${(error as Error).message}`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: InvalidRequestBody } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return {
      ok: false,
      error: invalidRequest([{ path: '', message: `is not valid JSON: ${(error as Error).message}` }]),
    };
  }
}

function print(body: unknown, exitCode: number): number {
  process.stdout.write(`${JSON.stringify(body)}\n`);
  return exitCode;
}

function fail(operation: OneOffOperation, message: string): undefined {
  process.stderr.write(`outlay ${operation}: ${message}\n`);
  return undefined;
}
