/** Test helper: the tables of docs/scores.md, as published, for tests that hold the code to them. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/paths.js';

const text = readFileSync(join(PACKAGE_ROOT, 'docs', 'scores.md'), 'utf8');

/** The rows of the first table under the `## ` or `### ` heading `heading`, as trimmed cells. */
export function docsTable(heading: string): string[][] {
  const start = text
    .split('\n')
    .findIndex((line) => /^#{2,3} /.test(line) && line.replace(/^#+ /, '') === heading);
  if (start < 0) throw new Error(`docs/scores.md has no heading "${heading}"`);
  const lines = text.split('\n').slice(start + 1);
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** The code in a table's first cell, without its backticks. */
export const codeCell = (row: readonly string[]): string => row[0]!.replace(/`/g, '');
