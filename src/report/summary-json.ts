/**
 * Reading and writing `<name>.summary.json`. The text is deterministic (sorted distributions, fixed key
 * order) so that the same data gives the same bytes; [value, count] pairs sit on one line each so that a
 * large distribution stays readable and diffable.
 */
import { Compile } from 'typebox/compile';
import { SUMMARY_FORMAT, SUMMARY_VERSION, Summary } from './summary-schema.js';

const compiled = Compile(Summary);

/**
 * The text is `JSON.stringify(summary, null, 2)` with every array of exactly two integers (a [value, count]
 * pair) on one line as `[value, count]`, plus a final newline. It is built here value by value, the pairs
 * directly in their one-line form, into UTF-8 chunks of about CHUNK_CHARS: a large run's distributions hold
 * millions of pairs, and stringifying them indented and then rewriting that text took 500 MB of heap.
 */
export function summaryChunks(summary: Summary): Buffer[] {
  const out = new ChunkedText();
  writeValue(summary, '', out);
  out.push('\n');
  return out.finish();
}

export const serializeSummary = (summary: Summary): string =>
  Buffer.concat(summaryChunks(summary)).toString('utf8');

const CHUNK_CHARS = 1 << 16;

/** Appends text, turning it into bytes every CHUNK_CHARS so the many small strings never pile up. */
class ChunkedText {
  private text = '';
  private readonly chunks: Buffer[] = [];

  push(text: string): void {
    this.text += text;
    if (this.text.length >= CHUNK_CHARS) this.cut();
  }

  finish(): Buffer[] {
    this.cut();
    return this.chunks;
  }

  private cut(): void {
    if (this.text.length > 0) this.chunks.push(Buffer.from(this.text, 'utf8'));
    this.text = '';
  }
}

/** What the one-line rewrite matches; applied to string tokens too, which it could match inside. */
const PAIR = /\[\s+(-?\d+),\s+(\d+)\s+\]/g;
const PAIR_VALUE = /^-?\d+$/;
const PAIR_COUNT = /^\d+$/;

/** Values JSON.stringify leaves out of objects (and writes as null in arrays). */
const isOmitted = (value: unknown) =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';

const scalarText = (value: unknown): string => {
  const text = JSON.stringify(value);
  return typeof value === 'string' ? text.replace(PAIR, '[$1, $2]') : text;
};

function pairText(array: readonly unknown[]): string | undefined {
  if (array.length !== 2 || typeof array[0] !== 'number' || typeof array[1] !== 'number') return undefined;
  const value = JSON.stringify(array[0]);
  const count = JSON.stringify(array[1]);
  return PAIR_VALUE.test(value) && PAIR_COUNT.test(count) ? `[${value}, ${count}]` : undefined;
}

/** JSON.stringify's indented layout (two spaces) for plain JSON data, which is what a Summary is. */
function writeValue(value: unknown, indent: string, out: ChunkedText): void {
  if (value === null || typeof value !== 'object') {
    out.push(scalarText(value));
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const pair = pairText(value);
    if (pair !== undefined) {
      out.push(pair);
      return;
    }
    if (value.length === 0) {
      out.push('[]');
      return;
    }
    for (let i = 0; i < value.length; i++) {
      out.push(i === 0 ? `[\n${inner}` : `,\n${inner}`);
      const item: unknown = value[i];
      writeValue(isOmitted(item) ? null : item, inner, out);
    }
    out.push(`\n${indent}]`);
    return;
  }
  let empty = true;
  for (const [key, item] of Object.entries(value)) {
    if (isOmitted(item)) continue;
    out.push(`${empty ? '{' : ','}\n${inner}${scalarText(key)}: `);
    empty = false;
    writeValue(item, inner, out);
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
  return value;
}
