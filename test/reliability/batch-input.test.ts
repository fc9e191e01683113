/**
 * `outlay score` on malformed input files. Each file gets either a clear job-level error (exit 1, a message
 * naming the problem, no stack trace, nothing under a final name in --out) or per-row rejects with reasons,
 * with every input row accounted for: rows_in = rows_scored + rows_rejected, and both files hold exactly
 * those rows.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BatchInputCase, recordFigures } from '../../bench/reliability/figures.js';
import { type InputCase, malformedInputs } from './support/malformed-inputs.js';
import { runOutlay } from './support/outlay-cli.js';
import { finalFilesIn, reconcile } from './support/score-outputs.js';

const EXIT = { scored: 0, failed: 1, withRejects: 3 } as const;
const cases = malformedInputs();
const figures: BatchInputCase[] = [];
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'outlay-reliability-input-'));
});

afterAll(async () => {
  await recordFigures('batch-input', { cases: figures });
  await rm(root, { recursive: true, force: true });
});

async function scoreCase(input: InputCase, index: number) {
  const dir = join(root, String(index));
  const outDir = join(dir, 'out');
  await mkdir(dir);
  const file = join(dir, input.fileName);
  await writeFile(file, input.bytes);
  const outcome = await runOutlay([
    'score',
    file,
    '--out',
    outDir,
    '--workers',
    '0',
    '--batch-rows',
    '500',
    '--log-level',
    'error',
    '--no-progress',
  ]);
  return {
    outcome,
    outDir,
    name: input.fileName.replace(/\.[^.]+$/, ''),
    extension: input.fileName.endsWith('.arrow') ? 'arrow' : 'csv',
  } as const;
}

describe.concurrent('outlay score on malformed input', () => {
  it.each(cases.map((input, index) => [input.name, input, index] as const))(
    '%s',
    async (_name, input, index) => {
      const { outcome, outDir, name, extension } = await scoreCase(input, index);
      expect(outcome.signal).toBeNull();
      // A message for a person, not a crash: no stack frames on stderr.
      expect(outcome.stderr).not.toMatch(/^\s+at /m);

      if (input.expect.kind === 'job error') {
        figures.push({
          name: input.name,
          outcome: 'job error',
          exitCode: outcome.code ?? -1,
          rowsIn: null,
          rowsScored: null,
          rowsRejected: null,
          message: outcome.stderr.trim().split('\n')[0] ?? '',
        });
        expect(outcome.code, outcome.stderr).toBe(EXIT.failed);
        expect(await finalFilesIn(outDir)).toEqual([]);
        expect(outcome.stderr).toMatch(input.expect.message);
        return;
      }

      const { counts, scoredRows, rejectRows, firstRejectReason } = await reconcile(outDir, name, extension);
      figures.push({
        name: input.name,
        outcome: counts.rows_rejected > 0 ? 'scored with rejects' : 'scored',
        exitCode: outcome.code ?? -1,
        rowsIn: counts.rows_in,
        rowsScored: counts.rows_scored,
        rowsRejected: counts.rows_rejected,
        message: firstRejectReason ?? '',
      });
      expect(outcome.code, outcome.stderr).toBe(input.expect.rejected > 0 ? EXIT.withRejects : EXIT.scored);
      expect(counts.rows_in).toBe(input.expect.rowsIn);
      expect(counts.rows_rejected).toBe(input.expect.rejected);
      expect(counts.rows_scored + counts.rows_rejected).toBe(counts.rows_in);
      expect(scoredRows).toBe(counts.rows_scored);
      expect(rejectRows).toBe(counts.rows_rejected);
      if (input.expect.reason !== undefined) expect(firstRejectReason).toMatch(input.expect.reason);
    },
  );
});
