/**
 * Reading and writing `<name>.summary.json`. The text is deterministic (sorted distributions, fixed key
 * order) so that the same data gives the same bytes; [value, count] pairs sit on one line each so that a
 * large distribution stays readable and diffable.
 */
import { Compile } from 'typebox/compile';
import { SUMMARY_FORMAT, SUMMARY_VERSION, Summary } from './summary-schema.js';

const compiled = Compile(Summary);

export function serializeSummary(summary: Summary): string {
  return `${JSON.stringify(summary, null, 2).replace(/\[\s+(-?\d+),\s+(\d+)\s+\]/g, '[$1, $2]')}\n`;
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
