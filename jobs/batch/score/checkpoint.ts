/**
 * Resume support. While a `--resume` job runs, it periodically makes its temporary outputs durable and
 * records, in `.<name>.checkpoint.json` beside them, how many input rows are fully written and the byte
 * length of each temporary file at that point. A resumed run cuts the files back to those lengths, skips
 * those rows (no engine call, no remote request) and appends the rest, so the final files are byte for byte
 * those of an uninterrupted run. The summary of the rows already written is rebuilt from the scored file
 * itself (and the reject reasons from the checkpoint), so nothing but the files has to survive a kill.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat, unlink } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parse } from 'csv-parse';
import type { Logger } from 'pino';
import { csvReadOptions, readDecimal } from '../io/csv-encoding.js';
import { partialPathOf, writeFileAtomically } from '../io/output-file.js';
import { buildRequest } from '../io/row-request.js';
import type { SummaryBuilder } from '../report/summary.js';
import { type OutputLayout, scoredHeader } from './layout.js';

/** 2: with `zipsPadded`. A checkpoint of another version is not resumed from: the run starts over. */
const CHECKPOINT_VERSION = 2;

export interface Checkpoint {
  readonly version: number;
  /** Identifies the input and every option that changes the output; a mismatch means start over. */
  readonly fingerprint: string;
  /** Every input row numbered up to this one is written (scored, rejected, or outside the shard). */
  readonly rowsDone: number;
  readonly scoredBytes: number;
  readonly rejectsBytes: number;
  readonly rejectedByReason: Readonly<Record<string, number>>;
  /** Scored rows written so far whose ZIP had its leading zeros restored. */
  readonly zipsPadded: number;
}

/** Ties a checkpoint to the input's path and content (`inputSha256`) and to every option that changes the output. */
export function fingerprintOf(
  input: string,
  inputSha256: string,
  options: Readonly<Record<string, unknown>>,
): string {
  const identity = { input: resolve(input), inputSha256, ...options };
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex');
}

export async function readCheckpoint(path: string, logger: Logger): Promise<Checkpoint | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const checkpoint = JSON.parse(text) as Checkpoint;
    if (checkpoint.version === CHECKPOINT_VERSION) return checkpoint;
  } catch {
    // Written atomically, so unreadable only when damaged outside the job: treated like an old version.
  }
  logger.warn({ checkpoint: path }, 'checkpoint is unreadable or of another version; starting over');
  return undefined;
}

/**
 * The checkpoint at `path` when it is for this input and these options (`fingerprint`) and the temporary
 * files it describes are still there, at least as long as it says; otherwise the run starts over, logged.
 */
export async function matchingCheckpoint(
  path: string,
  fingerprint: string,
  partialPaths: readonly string[],
  logger: Logger,
): Promise<Checkpoint | undefined> {
  const previous = await readCheckpoint(path, logger);
  if (previous === undefined) return undefined;
  if (previous.fingerprint !== fingerprint) {
    logger.warn(
      { checkpoint: path },
      'checkpoint is for another input (path or content) or other options; starting over',
    );
    return undefined;
  }
  const lengths = await Promise.all(partialPaths.map((partial) => sizeOf(partialPathOf(partial))));
  const recorded = [previous.scoredBytes, previous.rejectsBytes];
  if (lengths.every((length, i) => length >= recorded[i]!)) return previous;
  logger.warn(
    { checkpoint: path, recordedBytes: recorded, foundBytes: lengths },
    'the temporary files no longer match the checkpoint (another run replaced them); starting over',
  );
  return undefined;
}

const sizeOf = (path: string) =>
  stat(path).then(
    (s) => s.size,
    () => -1,
  );

export async function writeCheckpoint(path: string, checkpoint: Omit<Checkpoint, 'version'>): Promise<void> {
  await writeFileAtomically(path, JSON.stringify({ version: CHECKPOINT_VERSION, ...checkpoint }));
}

/** Removes the checkpoint at `path`; true when there was one. */
export async function removeCheckpoint(path: string): Promise<boolean> {
  return unlink(path).then(
    () => true,
    () => false,
  );
}

/** Feeds the summary with the scored rows already in the temporary scored CSV, up to `bytes`. */
export async function replayScoredRows(
  scoredPath: string,
  bytes: number,
  layout: OutputLayout,
  summary: SummaryBuilder,
): Promise<number> {
  if (bytes === 0) return 0;
  const header = scoredHeader(layout);
  const at = (name: string) => header.indexOf(name);
  const [psa, score, savings, state, geoLevel] = [
    at('predicted_saving_ability'),
    at('outlay_score'),
    at('savings_score'),
    at('state'),
    at('geo_level'),
  ];
  const [index, , percentile, reasonCodes, expenseFlags] = layout.explanationColumns.map(at);
  const lendingIndex = layout.lendingColumns.length === 0 ? -1 : at(layout.lendingColumns[2]!);
  const parser = createReadStream(partialPathOf(scoredPath), { start: 0, end: bytes - 1 }).pipe(
    parse({ ...csvReadOptions(layout.csv), from_line: 2 }),
  );
  // `--excel` with a `;` input writes decimal commas.
  const decimal = (text: string | undefined) => readDecimal(text ?? '', layout.csv);
  let rows = 0;
  for await (const fields of parser as AsyncIterable<string[]>) {
    // Input column c is the scored file's column c + 1, after the row number.
    const { demographics } = buildRequest(layout.plan, (column) => fields[column + 1]).body;
    summary.addScored({
      psa: Number(fields[psa]),
      score: decimal(fields[score]),
      savingsScore: decimal(fields[savings]),
      state: fields[state] || null,
      age: demographics.age as number | undefined,
      netIncome: demographics.net_annual_income as number,
      grossIncome: demographics.gross_annual_income as number | undefined,
      isHomeowner: demographics.is_homeowner as boolean | undefined,
      geoLevel: fields[geoLevel],
      householdMembers: demographics.household_members as number | undefined,
      householdType: demographics.household_type as string | undefined,
      index: decimal(fields[index!]),
      percentile: decimal(fields[percentile!]),
      reasonCodes: fields[reasonCodes!] ?? '',
      expenseFlags: fields[expenseFlags!] ?? '',
      groups: Object.fromEntries(layout.groups.map((group) => [group.name, fields[group.column + 1] ?? ''])),
      lendingIndex: fields[lendingIndex] ? decimal(fields[lendingIndex]) : undefined,
    });
    rows++;
  }
  return rows;
}
