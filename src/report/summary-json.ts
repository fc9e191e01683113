/**
 * Reading and writing `<name>.summary.json`. The text is deterministic (sorted distributions, fixed key
 * order) so that the same data gives the same bytes; [value, count] pairs sit on one line each so that a
 * large distribution stays readable and diffable.
 */
import { Compile } from '../vendor/typebox.js';
import { SortedCounts } from './count-map.js';
import {
  type Distribution,
  type DistributionJson,
  SUMMARY_FORMAT,
  SUMMARY_VERSION,
  Summary,
  type SummaryJson,
} from './summary-schema.js';

const compiled = Compile(Summary);

/**
 * The text is `JSON.stringify(summary, null, 2)` with every distribution written as its list of
 * [value, count] pairs, one pair per line as `[value, count]`, plus a final newline. It is built here value
 * by value, the pairs straight from their typed arrays, into UTF-8 chunks of about CHUNK_CHARS that are
 * handed out one at a time, so a writer holds one chunk, not the file: a large run's distributions hold
 * millions of pairs (summary.json is 17 MB at 1 M rows, 121 MB with `--group-by zip` on 200,000 rows), and
 * stringifying them indented and then rewriting that text took 500 MB of heap.
 */
export function* summaryChunks(summary: Summary): Generator<Buffer> {
  const out = new ChunkedText();
  yield* writeValue(summary, '', out);
  out.push('\n');
  if (out.length > 0) yield out.take();
}

export const serializeSummary = (summary: Summary): string =>
  Buffer.concat([...summaryChunks(summary)]).toString('utf8');

const CHUNK_CHARS = 1 << 16;

/**
 * Text appended in small strings and taken out as UTF-8 chunks: the writers take a chunk whenever the
 * text is `full`, so the many small strings never pile up.
 */
class ChunkedText {
  private text = '';

  push(text: string): void {
    this.text += text;
  }

  get length(): number {
    return this.text.length;
  }

  get full(): boolean {
    return this.text.length >= CHUNK_CHARS;
  }

  take(): Buffer {
    const chunk = Buffer.from(this.text, 'utf8');
    this.text = '';
    return chunk;
  }
}

/**
 * The pattern of the former whole-text rewrite of indented pairs into one-line ones; string tokens still go
 * through it (it could match inside them), so the bytes stay those of earlier versions.
 */
const PAIR = /\[\s+(-?\d+),\s+(\d+)\s+\]/g;

/** Values JSON.stringify leaves out of objects (and writes as null in arrays). */
const isOmitted = (value: unknown) =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';

const scalarText = (value: unknown): string => {
  const text = JSON.stringify(value);
  return typeof value === 'string' ? text.replace(PAIR, '[$1, $2]') : text;
};

function* writePairs(sorted: SortedCounts, indent: string, out: ChunkedText): Generator<Buffer> {
  if (sorted.length === 0) {
    out.push('[]');
    return;
  }
  const inner = `${indent}  `;
  for (let i = 0; i < sorted.length; i++) {
    out.push(`${i === 0 ? '[' : ','}\n${inner}[${sorted.values[i]}, ${sorted.counts[i]}]`);
    if (out.full) yield out.take();
  }
  out.push(`\n${indent}]`);
}

/** JSON.stringify's indented layout (two spaces) for plain JSON data and SortedCounts (as their pairs). */
function* writeValue(value: unknown, indent: string, out: ChunkedText): Generator<Buffer> {
  if (value === null || typeof value !== 'object') {
    out.push(scalarText(value));
    return;
  }
  if (value instanceof SortedCounts) {
    yield* writePairs(value, indent, out);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push('[]');
      return;
    }
    for (let i = 0; i < value.length; i++) {
      out.push(i === 0 ? `[\n${inner}` : `,\n${inner}`);
      const item: unknown = value[i];
      yield* writeValue(isOmitted(item) ? null : item, inner, out);
      if (out.full) yield out.take();
    }
    out.push(`\n${indent}]`);
    return;
  }
  let empty = true;
  for (const [key, item] of Object.entries(value)) {
    if (isOmitted(item)) continue;
    out.push(`${empty ? '{' : ','}\n${inner}${scalarText(key)}: `);
    empty = false;
    yield* writeValue(item, inner, out);
    if (out.full) yield out.take();
  }
  out.push(empty ? '{}' : `\n${indent}}`);
}

/**
 * Parses and validates a summary file's text.
 * @throws naming `source` and the first problems found, if the text is not an Outlay summary of this version
 */
export function parseSummary(text: string, source: string): Summary {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const header = value as { format?: unknown; version?: unknown } | null;
  if (header?.format !== SUMMARY_FORMAT)
    throw new Error(`${source} is not an Outlay summary (no "format": "${SUMMARY_FORMAT}")`);
  if (header.version !== SUMMARY_VERSION) {
    throw new Error(
      `${source} is a version ${String(header.version)} summary; this Outlay reads version ${SUMMARY_VERSION}`,
    );
  }
  if (!compiled.Check(value)) {
    const problems = [...compiled.Errors(value)]
      .slice(0, 3)
      .map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new Error(`${source} is not a valid Outlay summary: ${problems.join('; ')}`);
  }
  return withSortedCounts(value);
}

const sortedDistribution = (json: DistributionJson): Distribution => ({
  psa: SortedCounts.fromPairs(json.psa),
  score_x10: SortedCounts.fromPairs(json.score_x10),
  savings_score_x10: SortedCounts.fromPairs(json.savings_score_x10),
});

/**
 * The summary with its distributions as SortedCounts, converted here by hand: a TypeBox codec did it too,
 * but its generic decoding of a million pairs took seconds.
 */
function withSortedCounts(json: SummaryJson): Summary {
  return {
    ...json,
    overall: { ...json.overall, distribution: sortedDistribution(json.overall.distribution) },
    dimensions: json.dimensions.map((dimension) => ({
      ...dimension,
      cohorts: dimension.cohorts.map((cohort) => ({
        ...cohort,
        distribution: sortedDistribution(cohort.distribution),
      })),
    })),
  };
}
