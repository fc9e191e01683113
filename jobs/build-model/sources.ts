/**
 * Reads raw input files and remembers the sha256 of each, so the model artifact can list exactly which
 * bytes it was built from.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';

export class SourceReader {
  private readonly checksums = new Map<string, string>();

  /** `root` is only used to name files relative to it in the checksum list. */
  constructor(private readonly root: string) {}

  bytes(path: string): Buffer {
    const data = readFileSync(path);
    this.checksums.set(relative(this.root, path), createHash('sha256').update(data).digest('hex'));
    return data;
  }

  text(path: string, encoding: BufferEncoding = 'utf8'): string {
    const data = this.bytes(path);
    return (path.endsWith('.gz') ? gunzipSync(data) : data).toString(encoding);
  }

  /** CSV rows as objects keyed by header; values are strings, with a UTF-8 BOM stripped. */
  csv(path: string, encoding: BufferEncoding = 'utf8'): Record<string, string>[] {
    return parse(this.text(path, encoding), { columns: true, bom: true, relax_column_count: true });
  }

  /**
   * Selected columns of a large CSV whose fields never contain commas (MTBI: numbers and short quoted
   * codes); csv-parse is ~10x slower on these 2.4M rows.
   */
  simpleCsv(path: string, columns: readonly string[]): string[][] {
    const lines = this.text(path).split('\n');
    const header = (lines[0] ?? '').split(',').map(unquote);
    const at = columns.map((name) => {
      const index = header.indexOf(name);
      if (index < 0) throw new Error(`${path}: no column ${name}`);
      return index;
    });
    const rows: string[][] = [];
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      if (line === '') continue;
      const fields = line.split(',');
      rows.push(at.map((index) => unquote(fields[index] ?? '')));
    }
    return rows;
  }

  /** Checksums in path order so the artifact is byte-stable. */
  list(): Record<string, string> {
    return Object.fromEntries([...this.checksums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}

function unquote(field: string): string {
  return field.startsWith('"') ? field.slice(1, -1) : field;
}
