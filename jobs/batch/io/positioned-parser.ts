/**
 * csv-parse's parser emitting each record with where it ends, read from the parser's documented live
 * `info` at the moment it emits the record. These are the figures the `info: true` option gives, without
 * its two object spreads per record: `info: true` cost 15–20 % of the CPU of a CSV → CSV job (200,000
 * generated rows, `--workers 1`, alternated runs; listed in docs/fast-paths.md).
 */
import { Parser } from 'csv-parse';
/** A record and where it ends. */
export interface PositionedRecord {
  readonly record: string[];
  /** Records emitted so far, this one and the header included. */
  readonly records: number;
  /** The line the record ends on. */
  readonly lines: number;
  /** Bytes read up to the record's end. */
  readonly bytes: number;
  /** Blank lines skipped so far. */
  readonly empty: number;
}

export class PositionedParser extends Parser {
  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk === null) return super.push(null, encoding);
    const { records, lines, bytes, empty_lines: empty } = this.info;
    const positioned: PositionedRecord = { record: chunk as string[], records, lines, bytes, empty };
    return super.push(positioned, encoding);
  }
}
