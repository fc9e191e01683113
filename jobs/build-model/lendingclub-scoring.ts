/**
 * The public LendingClub loans (shared/lendingclub, README there) scored as a lender would score them: the
 * file as published, through the command line's batch job (`outlay score` with the documented column map
 * and one assumed rate, docs/batch.md), into a temporary directory, and read back. The outcome column is
 * passed through by the job untouched and read only here, after scoring: nothing the scores use depends
 * on it.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { EXIT_REJECTS, EXIT_SUCCESS } from '../batch/score/exit-codes.js';

export const LENDINGCLUB_FILE = 'lendingclub_loanstats3a_2007_2011_subset.csv';
export const LENDINGCLUB_MAP = 'sample-data/lendingclub-map.json';
/** LendingClub's average rate of 2007–2011 (shared/lendingclub/README.md): the file carries none. */
export const LENDINGCLUB_RATE = '12%';
/** The scoring command as the card states it (the file from the raw data folder). */
export const LENDINGCLUB_COMMAND = `outlay score ../shared/lendingclub/${LENDINGCLUB_FILE} --map ${LENDINGCLUB_MAP} --loan-rate ${LENDINGCLUB_RATE}`;

const OUTCOME = { column: 'loan_status', yes: 'Charged Off', no: 'Fully Paid' } as const;

/** One scored loan: what the table compares. */
export interface ScoredLoan {
  readonly chargedOff: boolean;
  /** `annual_inc`: self-reported gross annual income, dollars of the issue year. */
  readonly grossIncome: number;
  /** `loan_payment`: the monthly payment the job derived from amount, term and the assumed rate. */
  readonly monthlyPayment: number;
  /** `lending_index`: lower is riskier. */
  readonly lendingIndex: number;
}

export interface LendingClubRun {
  readonly loans: readonly ScoredLoan[];
  /** The job's counts: input rows, and rejected rows by reason. */
  readonly rowsIn: number;
  readonly rejectedByReason: Readonly<Record<string, number>>;
  readonly modelVersion: string;
  /** sha256 of the input file and of the column map. */
  readonly sources: Readonly<Record<string, string>>;
}

/** Scores `<dir>/LENDINGCLUB_FILE` with bin/outlay.js and reads the scored loans and the job's summary. */
export function scoreLendingClub(dir: string): LendingClubRun {
  const input = join(dir, LENDINGCLUB_FILE);
  const out = mkdtempSync(join(tmpdir(), 'outlay-lendingclub-'));
  try {
    const map = join(PACKAGE_ROOT, LENDINGCLUB_MAP);
    const args = ['--map', map, '--loan-rate', LENDINGCLUB_RATE, '--out', out, '--no-progress'];
    const run = spawnSync(
      process.execPath,
      [join(PACKAGE_ROOT, 'bin', 'outlay.js'), 'score', input, ...args, '--log-level', 'warn'],
      { encoding: 'utf8' },
    );
    if (run.status !== EXIT_SUCCESS && run.status !== EXIT_REJECTS) {
      throw new Error(`${LENDINGCLUB_COMMAND} failed (exit ${run.status}): ${run.stderr}`);
    }
    const stem = join(out, basename(LENDINGCLUB_FILE, '.csv'));
    const summary = JSON.parse(readFileSync(`${stem}.summary.json`, 'utf8'));
    return {
      loans: readScoredLoans(readFileSync(`${stem}.scored.csv`, 'utf8')),
      rowsIn: summary.counts.rows_in,
      rejectedByReason: summary.counts.rejected_by_reason,
      modelVersion: summary.meta.model_version,
      sources: {
        [`lendingclub/${LENDINGCLUB_FILE}`]: summary.meta.input_sha256,
        [LENDINGCLUB_MAP]: createHash('sha256').update(readFileSync(map)).digest('hex'),
      },
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The scored file's outcome, gross income, payment and lending index of every row. */
export function readScoredLoans(csv: string): ScoredLoan[] {
  const [header, ...rows] = parse(csv) as string[][];
  const at = (name: string) => {
    const index = header!.indexOf(name);
    if (index < 0) throw new Error(`scored LendingClub file: no column ${name}`);
    return index;
  };
  const [line, status, income, payment, index] = [
    'row_number',
    OUTCOME.column,
    'annual_inc',
    'loan_payment',
    'lending_index',
  ].map(at);
  return rows.map((row) => {
    const where = `scored LendingClub file, row ${row[line!]}`;
    const outcome = row[status!];
    if (outcome !== OUTCOME.yes && outcome !== OUTCOME.no) {
      throw new Error(
        `${where}: ${OUTCOME.column} "${outcome}" is neither "${OUTCOME.yes}" nor "${OUTCOME.no}"`,
      );
    }
    const number = (column: number, name: string) => {
      const value = Number(row[column]);
      if (row[column] === '' || !Number.isFinite(value)) {
        throw new Error(`${where}: ${name} "${row[column]}" is not a number`);
      }
      return value;
    };
    return {
      chargedOff: outcome === OUTCOME.yes,
      grossIncome: number(income!, 'annual_inc'),
      monthlyPayment: number(payment!, 'loan_payment'),
      lendingIndex: number(index!, 'lending_index'),
    };
  });
}
