/** Reads a summary file, naming the file in every error. */
import { readFile } from 'node:fs/promises';
import { parseSummary } from './summary-json.js';
import type { Summary } from './summary-schema.js';

export async function readSummary(path: string): Promise<Summary> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseSummary(text, path);
}
