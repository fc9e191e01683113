import { type ParseArgsConfig, parseArgs } from 'node:util';
import { DEFAULT_RESULTS_DIR } from './paths.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface CommonArgs {
  /** Tiny sizes so CI proves the script still runs; numbers from a smoke run mean nothing. */
  readonly smoke: boolean;
  readonly resultsDir: string;
  /** Profile even when every target is met (an unmet target is always profiled outside smoke mode). */
  readonly profile: boolean;
}

/**
 * Parses the options every figure shares plus its own numeric options, each with a full-run and a smoke
 * default, so that `--smoke` and explicit sizes compose (`--smoke --rows 500`).
 */
export function parseBenchArgs<K extends string>(
  sizes: Readonly<Record<K, { full: number; smoke: number }>>,
): CommonArgs & Record<K, number> {
  const options: Options = {
    smoke: { type: 'boolean', default: false },
    results: { type: 'string', default: DEFAULT_RESULTS_DIR },
    profile: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  };
  for (const name of Object.keys(sizes)) options[name] = { type: 'string' };
  const { values } = parseArgs({ options, strict: true, allowPositionals: false });
  if (values.help === true) {
    process.stdout.write(benchUsage(sizes));
    process.exit(0);
  }
  const smoke = values.smoke === true;
  const numbers = {} as Record<K, number>;
  for (const [name, size] of Object.entries(sizes) as [K, { full: number; smoke: number }][]) {
    const given = values[name];
    const value = typeof given === 'string' ? Number(given) : smoke ? size.smoke : size.full;
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
    numbers[name] = value;
  }
  return { ...numbers, smoke, resultsDir: String(values.results), profile: values.profile === true };
}

function benchUsage(sizes: Readonly<Record<string, { full: number; smoke: number }>>): string {
  const script = process.argv[1] ?? 'bench script';
  const lines = [
    `usage: node ${script} [options]`,
    '',
    '  --smoke          tiny sizes (CI proves the script runs; its numbers mean nothing)',
    '  --profile        take a CPU profile even when every target is met',
    `  --results DIR    where to write the result JSON (default ${DEFAULT_RESULTS_DIR})`,
    ...Object.entries(sizes).map(
      ([name, size]) => `${`  --${name} N`.padEnd(19)}default ${size.full} (smoke ${size.smoke})`,
    ),
    '  --help           this text',
    '',
  ];
  return lines.join('\n');
}
