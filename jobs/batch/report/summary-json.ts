/**
 * Reading and writing `<name>.summary.json`. The text is deterministic (sorted distributions, fixed key
 * order) so that the same data gives the same bytes; [value, count] pairs sit on one line each so that a
 * large distribution stays readable and diffable.
 */

import { Compile } from '../../../src/vendor/typebox.js';
import { CsvBytes } from '../io/csv-bytes.js';
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
 * by value, the pairs straight from their typed arrays, into UTF-8 chunks of about CHUNK_BYTES that are
 * handed out one at a time, so a writer holds one chunk, not the file: a large run's distributions hold
 * millions of pairs (summary.json is 17 MB at 1 M rows, 121 MB with `--group-by zip` on 200,000 rows), and
 * stringifying them indented and then rewriting that text took 500 MB of heap. The pairs were then template
 * strings appended to a JS string, encoded per chunk; as digits written into bytes, with no string per
 * pair, a summary shaped like a 1 M-row run's (79 cohorts, 698,137 pairs, 18.2 MB) takes 75 ms instead of
 * 125 (median, warmed up) and about 110 ms instead of 170 when written once by a fresh process, as a run
 * does (Node 20, on a 2-core VM); with the pairs' separators encoded once, 68 and 95 ms.
 */
export function* summaryChunks(summary: Summary): Generator<Buffer> {
  const out = new ChunkedBytes();
  yield* writeValue(summary, '', out);
  out.bytes.plain('\n');
  yield out.take();
}

export const serializeSummary = (summary: Summary): string =>
  Buffer.concat([...summaryChunks(summary)]).toString('utf8');

const CHUNK_BYTES = 1 << 16;

/** Room past CHUNK_BYTES for the token that fills a chunk, so that a chunk's buffer need not grow. */
const emptyChunk = () => new CsvBytes(CHUNK_BYTES + 1024);

/**
 * Bytes written through a CsvBytes (whose integer and plain text writers are JSON's as much as CSV's) and
 * taken out as chunks: the writers take a chunk whenever it is `full`, so the file never piles up.
 */
class ChunkedBytes {
  bytes = emptyChunk();

  get full(): boolean {
    return this.bytes.byteLength >= CHUNK_BYTES;
  }

  take(): Buffer {
    const chunk = this.bytes.take();
    this.bytes = emptyChunk();
    return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
}

/** Values JSON.stringify leaves out of objects (and writes as null in arrays). */
const isOmitted = (value: unknown) =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';

const scalarText = (value: unknown): string => JSON.stringify(value);

const PAIR_SEPARATOR = Buffer.from(', ');

function* writePairs(sorted: SortedCounts, indent: string, out: ChunkedBytes): Generator<Buffer> {
  if (sorted.length === 0) {
    out.bytes.plain('[]');
    return;
  }
  const { values, counts } = sorted;
  // Closes a pair's line and opens the next one's: two separators per pair instead of three, each encoded
  // once (encoding them as text for every pair was about a sixth of the summary's writing).
  const between = Buffer.from(`],\n${indent}  [`);
  // Built before the loop: V8 optimises the loop during the first long distribution, and a template after
  // it, not yet run then, made the optimised code bail out at the end of every distribution.
  const end = `]\n${indent}]`;
  let bytes = out.bytes;
  bytes.plain(`[\n${indent}  [`);
  for (let i = 0; i < values.length; i++) {
    if (i > 0) bytes.raw(between);
    bytes.plain(`${values[i]!}`);
    bytes.raw(PAIR_SEPARATOR);
    bytes.plain(`${counts[i]!}`);
    if (out.full) {
      yield out.take();
      bytes = out.bytes;
    }
  }
  bytes.plain(end);
}

/** JSON.stringify's indented layout (two spaces) for plain JSON data and SortedCounts (as their pairs). */
function* writeValue(value: unknown, indent: string, out: ChunkedBytes): Generator<Buffer> {
  if (value === null || typeof value !== 'object') {
    out.bytes.plain(scalarText(value));
    return;
  }
  if (value instanceof SortedCounts) {
    yield* writePairs(value, indent, out);
    return;
  }
  if (Array.isArray(value)) yield* writeArray(value, indent, out);
  else yield* writeObject(value, indent, out);
}

function* writeArray(value: readonly unknown[], indent: string, out: ChunkedBytes): Generator<Buffer> {
  if (value.length === 0) {
    out.bytes.plain('[]');
    return;
  }
  const inner = `${indent}  `;
  for (let i = 0; i < value.length; i++) {
    out.bytes.plain(i === 0 ? `[\n${inner}` : `,\n${inner}`);
    const item: unknown = value[i];
    yield* writeValue(isOmitted(item) ? null : item, inner, out);
    if (out.full) yield out.take();
  }
  out.bytes.plain(`\n${indent}]`);
}

function* writeObject(value: object, indent: string, out: ChunkedBytes): Generator<Buffer> {
  const inner = `${indent}  `;
  let empty = true;
  for (const [key, item] of Object.entries(value)) {
    if (isOmitted(item)) continue;
    out.bytes.plain(`${empty ? '{' : ','}\n${inner}${scalarText(key)}: `);
    empty = false;
    yield* writeValue(item, inner, out);
    if (out.full) yield out.take();
  }
  out.bytes.plain(empty ? '{}' : `\n${indent}}`);
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
  index_x10: SortedCounts.fromPairs(json.index_x10),
  percentile_x10: SortedCounts.fromPairs(json.percentile_x10),
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
